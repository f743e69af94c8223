// The host page's API: the page that embeds the player in an iframe sends
//   iframe.contentWindow.postMessage({ command, message }, playerOrigin)
// with command sendChat (text), setMic (boolean), setSpeaker (boolean), say (text), connect,
// disconnect, or forwardEvents (a list of event names). The player posts the events the
// avatar's client JSON (or forwardEvents) chose back to the parent as
//   { source: 'parla-player', event, data }.
import { PLAYER_COMMANDS, PLAYER_EVENTS, type PlayerCommand, type PlayerEventName } from '@parla/shared/embed-params';

export interface HostCommands {
  sendChat(text: string): void;
  setMic(on: boolean): void;
  setSpeaker(on: boolean): void;
  say(text: string): void;
  connect(): void;
  disconnect(): void;
}

const MAX_TEXT = 2000;

export function asBoolean(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 1 || v === '1' || v === 'on') return true;
  if (v === 'false' || v === 0 || v === '0' || v === 'off') return false;
  return null;
}

export class HostBridge {
  private forward: Set<PlayerEventName>;
  private readonly parent: Window | null;
  private readonly onMessage = (e: MessageEvent) => this.handle(e);

  constructor(
    private readonly commands: HostCommands,
    forward: PlayerEventName[],
    private readonly win: Window = window,
  ) {
    this.forward = new Set(forward);
    this.parent = win.parent && win.parent !== win ? win.parent : null;
    win.addEventListener('message', this.onMessage);
  }

  emit(event: PlayerEventName, data?: unknown): void {
    if (!this.parent || !this.forward.has(event)) return;
    this.parent.postMessage({ source: 'parla-player', event, data: data ?? null }, '*');
  }

  /** Posts an event whatever the forward list says (the host page must receive it: sttResponse). */
  post(event: PlayerEventName, data?: unknown): void {
    this.parent?.postMessage({ source: 'parla-player', event, data: data ?? null }, '*');
  }

  stop(): void {
    this.win.removeEventListener('message', this.onMessage);
  }

  /** Exposed for tests. */
  handle(e: Pick<MessageEvent, 'data' | 'source'>): void {
    // Only the embedding page may command the player.
    if (!this.parent || e.source !== this.parent) return;
    const data = e.data as { command?: unknown; message?: unknown } | null;
    if (!data || typeof data !== 'object' || typeof data.command !== 'string') return;
    const command = data.command as PlayerCommand;
    if (!(PLAYER_COMMANDS as readonly string[]).includes(command)) return;
    const text = typeof data.message === 'string' ? data.message.trim().slice(0, MAX_TEXT) : '';
    switch (command) {
      case 'sendChat':
        if (text) this.commands.sendChat(text);
        break;
      case 'say':
        if (text) this.commands.say(text);
        break;
      case 'setMic': {
        const on = asBoolean(data.message);
        if (on !== null) this.commands.setMic(on);
        break;
      }
      case 'setSpeaker': {
        const on = asBoolean(data.message);
        if (on !== null) this.commands.setSpeaker(on);
        break;
      }
      case 'connect':
        this.commands.connect();
        break;
      case 'disconnect':
        this.commands.disconnect();
        break;
      case 'forwardEvents':
        if (Array.isArray(data.message))
          this.forward = new Set(
            data.message.filter((x): x is PlayerEventName => (PLAYER_EVENTS as readonly string[]).includes(x as string)),
          );
        break;
    }
  }
}
