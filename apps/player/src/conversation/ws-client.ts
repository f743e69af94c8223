// The conversation runtime's client: WS /ws/conversation?avatarId=…&token=… on this page's
// origin, the messages of @parla/shared/schemas/conversation (types only: zod stays out of the
// bundle). A hello names the browser (a device id kept in localStorage: the avatar's per-session
// daily limit follows it). Avatars behind a partner's sign-in send the end user there and back.
// Third-party agents (a `connect` message) are reached through their provider's session, loaded
// on demand (third-party/open.ts); this conversation stays open for the records and limits.
import type { ByeReason, ClientMessage, ServerMessage } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import { micFrameOk, readAudioFrame } from './audio-frame-reader';
import type { ConversationClient, ConversationHandlers } from './conversation-client';
import { providerName, type ConnectInfo, type ProviderSession } from './third-party/provider';

const DEVICE_KEY = 'parla.deviceId';

function deviceId(): string {
  try {
    const known = localStorage.getItem(DEVICE_KEY);
    if (known) return known;
    const id = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, id);
    return id;
  } catch {
    return crypto.randomUUID();
  }
}

function deviceOS(): string {
  const ua = navigator.userAgent;
  if (/Android/i.test(ua)) return 'Android';
  if (/iPhone|iPad|iPod/i.test(ua)) return 'iOS';
  if (/Windows/i.test(ua)) return 'Windows';
  if (/Mac OS X/i.test(ua)) return 'macOS';
  if (/Linux/i.test(ua)) return 'Linux';
  return 'Unknown';
}

export interface WsClientOptions {
  avatarId: string;
  /** The access link's token (Default: the avatar's token; a created key: a signed JWT). */
  token: string | null;
  /** From the partner's sign-in (avatars with OAuth). */
  oauthGrant: string | null;
  /** The page the end user comes back to after a partner's sign-in. */
  backPath: string;
  origin?: string;
  /** The avatar's language (lip-sync of third-party agents). */
  language?: string;
}

export class WsConversationClient implements ConversationClient {
  private ws: WebSocket | null = null;
  private handlers: ConversationHandlers | null = null;
  private pending: ClientMessage[] = [];
  private ready = false;
  /** Microphone audio may go up only after a ready with listen 'server' (decision 611). */
  private listenServer = false;
  private provider: ProviderSession | null = null;
  private providerTurn = 0;
  /** The agent's replies by their text (corrections name the original text). */
  private agentReplies = new Map<string, string>();
  private closed = false;
  /** What the server said before closing: its bye reason and last error. */
  private bye: ByeReason | undefined;
  private lastError: string | undefined;
  private started = false;
  /** The page's clock at `ready`: user_speech `at` counts from it. */
  private readyAt = 0;
  private micOn = false;
  private speakerOn = true;

  constructor(private readonly opts: WsClientOptions) {}

  private url(): string {
    const origin = this.opts.origin ?? window.location.origin;
    const q = new URLSearchParams({ avatarId: this.opts.avatarId });
    if (this.opts.token) q.set('token', this.opts.token);
    if (this.opts.oauthGrant) q.set('oauthGrant', this.opts.oauthGrant);
    return `${origin.replace(/^http/, 'ws')}/ws/conversation?${q}`;
  }

  private send(msg: ClientMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN && this.ready) this.ws.send(JSON.stringify(msg));
    else this.pending.push(msg);
  }

  connect(handlers: ConversationHandlers): Promise<void> {
    this.handlers = handlers;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    return new Promise((resolve) => {
      ws.onopen = () => {
        ws.send(
          JSON.stringify({
            type: 'hello',
            deviceId: deviceId(),
            deviceOS: deviceOS(),
            locale: navigator.language,
            userName: 'Guest',
            audio: true,
          } satisfies ClientMessage),
        );
        resolve();
      };
      ws.binaryType = 'arraybuffer';
      ws.onmessage = (ev: MessageEvent<unknown>) =>
        ev.data instanceof ArrayBuffer ? this.onBinary(ev.data) : this.onMessage(String(ev.data));
      ws.onerror = () => resolve();
      ws.onclose = (ev) => {
        this.ws = null;
        this.ready = false;
        this.listenServer = false;
        this.provider?.close();
        this.provider = null;
        this.pending = [];
        // The user's own close() reports nothing; every other end says why.
        if (!this.closed) {
          this.closed = true;
          handlers.onClose?.({
            code: ev.code,
            started: this.started,
            ...(this.bye ? { bye: this.bye } : {}),
            ...(this.lastError ? { error: this.lastError } : {}),
          });
        }
        this.handlers = null;
        resolve();
      };
    });
  }

  /** A reply audio chunk: [u32 header length][JSON header][audio]. A malformed one is skipped. */
  private onBinary(data: ArrayBuffer): void {
    const frame = readAudioFrame(data);
    if (!frame.ok) {
      console.warn(`Parla: an audio frame was skipped (${frame.error}).`);
      return;
    }
    this.handlers?.onAudioFrame?.(frame.header, frame.audio);
  }

  private onMessage(raw: string): void {
    const h = this.handlers;
    if (!h) return;
    let msg: ServerMessage;
    try {
      msg = JSON.parse(raw) as ServerMessage;
    } catch {
      return;
    }
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        this.started = true;
        this.readyAt = performance.now();
        this.listenServer = msg.listen === 'server';
        h.onReady?.({
          sessionId: msg.sessionId,
          engine: msg.engine,
          ...(msg.audio ? { audio: true } : {}),
          listen: msg.listen ?? 'browser',
          ...(msg.vad ? { vad: msg.vad } : {}),
          ...(msg.handleSttResponse ? { handleSttResponse: true } : {}),
          ...(msg.transcriptionStreaming !== undefined ? { transcriptionStreaming: msg.transcriptionStreaming } : {}),
          ...(msg.transcriptUrl ? { transcriptUrl: msg.transcriptUrl } : {}),
        });
        for (const m of this.pending.splice(0)) this.ws?.send(JSON.stringify(m));
        break;
      case 'assistant_delta':
        h.onDelta(msg.turnId, msg.text);
        break;
      case 'assistant_done':
        h.onDone(msg.turnId, msg.text, msg.interrupted ? { interrupted: true } : {});
        break;
      case 'transcript':
        h.onTranscript?.(msg.text, msg.final);
        break;
      case 'notice':
        h.onNotice?.(msg.message);
        break;
      case 'connect':
        void this.openProvider(msg, h);
        break;
      case 'error':
        if (msg.signInUrl) {
          window.location.assign(`${msg.signInUrl}?back=${encodeURIComponent(this.opts.backPath)}`);
          return;
        }
        this.lastError = msg.message;
        h.onError(msg.code, msg.message);
        break;
      case 'bye':
        this.bye = msg.reason;
        break;
      default:
        break;
    }
  }

  private async openProvider(connect: ConnectInfo, h: ConversationHandlers): Promise<void> {
    try {
      const { openProvider } = await import('./third-party/open');
      const session = await openProvider(
        connect,
        {
          onAgentText: (text) => {
            const turnId = `agent-${++this.providerTurn}`;
            this.agentReplies.set(text, turnId);
            h.onDone(turnId, text);
          },
          onAgentCorrection: (original, corrected) => {
            const turnId = this.agentReplies.get(original);
            if (turnId && corrected.trim()) h.onCorrection?.(turnId, corrected);
          },
          onSpeaking: (on) => h.onSpeaking?.(on),
          onUserText: (text) => {
            this.userActive();
            h.onUserText?.(text);
          },
          onMouth: (source) => h.onMouth?.(source),
          onError: (message) => h.onError(ErrorCode.RequestFail, message),
          onEnd: (message) => {
            this.provider = null;
            h.onNotice?.(message);
            this.close();
          },
        },
        { language: this.opts.language ?? 'en', speaker: this.speakerOn },
      );
      if (this.closed) return session.close();
      this.provider = session;
      session.setMic(this.micOn);
      h.onProvider?.({ provider: connect.provider });
    } catch (err) {
      const reason = err instanceof Error && err.message ? err.message : 'it could not be reached';
      h.onError(
        ErrorCode.RequestFail,
        `This avatar's ${providerName(connect)} agent is not available right now (${reason.replace(/\.$/, '')}).`,
      );
    }
  }

  /** The user talks to a third-party agent: the conversation here is not idle. */
  private userActive(): void {
    if (this.ready) this.send({ type: 'user_speech', event: 'end' });
  }

  sendText(text: string): void {
    if (this.provider) {
      this.userActive();
      if (!this.provider.sendText(text)) this.handlers?.onNotice?.('This avatar listens only: please use the microphone.');
      return;
    }
    this.send({ type: 'user_text', text });
  }

  /** Microphone audio (PCM16, 16 kHz) as one binary frame; dropped unless the server listens. */
  sendAudio(pcm16: Uint8Array<ArrayBuffer>): void {
    if (!this.listenServer || this.ws?.readyState !== WebSocket.OPEN || !micFrameOk(pcm16)) return;
    this.ws.send(pcm16);
  }

  /** The player's VAD saw speech start or end. `at` is when that audio was captured, since the
   *  conversation started: the server times the turn by it (min_speech_duration, endpointing),
   *  not by when the message arrives, which can be seconds after a burst of late judging. */
  sendSpeech(event: 'start' | 'end', atMs?: number): void {
    if (!this.ready) return;
    this.send({ type: 'user_speech', event, ...(atMs === undefined ? {} : { at: Math.max(0, Math.round(atMs - this.readyAt)) }) });
  }

  interrupt(): void {
    this.provider?.interrupt();
    if (this.ready) this.send({ type: 'interrupt' });
  }

  setMic(on: boolean): void {
    this.micOn = on;
    this.provider?.setMic(on);
  }

  setSpeaker(on: boolean): void {
    this.speakerOn = on;
    this.provider?.setSpeaker(on);
  }

  close(): void {
    this.closed = true;
    this.provider?.close();
    this.provider = null;
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'bye' } satisfies ClientMessage));
    this.ws?.close(1000);
    this.ws = null;
    this.handlers = null;
  }
}
