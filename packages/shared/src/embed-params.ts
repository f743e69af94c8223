// The player's embed parameters (spec 2 §2 Embed tab, plus the extra switches of the access
// link) and the default client JSON. Zod-free on purpose: the player imports this at runtime
// and must stay within its first-load budget; schemas/player.ts derives the zod schema from it.

export const CONTROL_BUTTON_POSITIONS = ['center', 'right', 'left'] as const;
export type ControlButtonPosition = (typeof CONTROL_BUTTON_POSITIONS)[number];

/** Boolean switches: `?hideChatInput=true` (also 1/yes; false/0/no turn them off). */
export const EMBED_FLAGS = [
  'hideChatInput',
  'hideChatHistory',
  'connect',
  'micOff',
  'speakerOff',
  'hideFS',
  'hideLetsChatBtn',
  'hideMicButton',
  'hideSpeakerButton',
  'hideCaptions',
] as const;
export type EmbedFlag = (typeof EMBED_FLAGS)[number];

export interface EmbedParams extends Record<EmbedFlag, boolean> {
  /** A colour (`#0b1020`, `navy`, `rgb(...)`) or an image URL (http(s) or same-origin path). */
  dialPageBackground?: string;
  /** `W:H`, e.g. `9:16`: the stage keeps this shape, letterboxed inside the frame. */
  screenAspectRatio?: string;
  controlButtonPosition: ControlButtonPosition;
}

export const DEFAULT_EMBED_PARAMS: EmbedParams = {
  hideChatInput: false,
  hideChatHistory: false,
  connect: false,
  micOff: false,
  speakerOff: false,
  hideFS: false,
  hideLetsChatBtn: false,
  hideMicButton: false,
  hideSpeakerButton: false,
  hideCaptions: false,
  controlButtonPosition: 'center',
};

export const ASPECT_RATIO_PATTERN = /^(\d{1,3}(?:\.\d{1,3})?):(\d{1,3}(?:\.\d{1,3})?)$/;
const TRUE = new Set(['true', '1', 'yes', '']);
const FALSE = new Set(['false', '0', 'no']);

/** A parsed flag, or undefined when the value means neither (so it cannot override). */
export function parseFlag(value: string | null | undefined): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return undefined;
}

export function isAspectRatio(value: string): boolean {
  const m = ASPECT_RATIO_PATTERN.exec(value);
  return !!m && Number(m[1]) > 0 && Number(m[2]) > 0;
}

/** Colours and URLs only: anything that could break out of a CSS value is dropped. */
export function isSafeBackground(value: string): boolean {
  if (value.length > 2000 || /[;{}<>"'\\]/.test(value)) return false;
  if (/^#[0-9a-f]{3,8}$/i.test(value) || /^[a-z]{3,20}$/i.test(value)) return true;
  if (/^(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\)$/i.test(value)) return true;
  return /^(https?:\/\/|\/)[^\s()]+$/i.test(value);
}

/** URLSearchParams, structurally (this package has no DOM types). */
export interface QueryLike {
  get(name: string): string | null;
}
const isQuery = (s: unknown): s is QueryLike => typeof (s as QueryLike).get === 'function';

/**
 * Reads the embed parameters present in a query string (or a client JSON object), ignoring
 * unknown names and invalid values: a bad parameter in a customer's embed code must not break
 * the page, it just does not apply.
 */
export function readEmbedParams(source: QueryLike | Record<string, unknown>): Partial<EmbedParams> {
  const get = (name: string): string | undefined => {
    if (isQuery(source)) return source.get(name) ?? undefined;
    const v = source[name];
    return typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number' ? String(v) : undefined;
  };
  const out: Partial<EmbedParams> = {};
  for (const flag of EMBED_FLAGS) {
    const v = parseFlag(get(flag));
    if (v !== undefined) out[flag] = v;
  }
  const bg = get('dialPageBackground')?.trim();
  if (bg && isSafeBackground(bg)) out.dialPageBackground = bg;
  const ratio = get('screenAspectRatio')?.trim();
  if (ratio && isAspectRatio(ratio)) out.screenAspectRatio = ratio;
  const pos = get('controlButtonPosition')?.trim().toLowerCase();
  if (pos && (CONTROL_BUTTON_POSITIONS as readonly string[]).includes(pos)) out.controlButtonPosition = pos as ControlButtonPosition;
  return out;
}

/** Events the player can forward to the host page (postMessage), chosen by `forwardEvents`. */
export const PLAYER_EVENTS = [
  'ready',
  'connected',
  'disconnected',
  'userText',
  'assistantText',
  'speakingStarted',
  'speakingEnded',
  'micChanged',
  'speakerChanged',
  'error',
  /** Once: the browser cannot speak the avatar's language and no server voice does (captions stay). */
  'speechUnavailable',
  /** The conversation was cut and the player reconnects by itself (`{reason, attempt}`). */
  'reconnecting',
  /** Handle STT Response: what the player recognised (`{text}`), for the host page to send with
   *  sendChat or drop. Always posted when the avatar has the setting, whatever forwardEvents says. */
  'sttResponse',
  /** Transcription Streaming: the user's interim transcript while they speak (`{text}`). */
  'sttInterim',
] as const;
export type PlayerEventName = (typeof PLAYER_EVENTS)[number];

/** Commands the host page may send: `iframe.contentWindow.postMessage({command, message}, origin)`. */
export const PLAYER_COMMANDS = ['sendChat', 'setMic', 'setSpeaker', 'say', 'connect', 'disconnect', 'forwardEvents'] as const;
export type PlayerCommand = (typeof PLAYER_COMMANDS)[number];

export const LETS_CHAT_TEXT = "LET'S CHAT";

/**
 * The client JSON a new avatar starts with (spec 2 §3: it includes the LET'S CHAT button text).
 * Its embed keys are defaults that URL parameters override.
 */
export const DEFAULT_CLIENT_JSON = {
  letsChatButtonText: LETS_CHAT_TEXT,
  dialPageTitle: '',
  chatInputPlaceholder: 'Type a message…',
  ...DEFAULT_EMBED_PARAMS,
  forwardEvents: ['ready', 'userText', 'assistantText', 'error'] as PlayerEventName[],
};
export type ClientJson = typeof DEFAULT_CLIENT_JSON;
