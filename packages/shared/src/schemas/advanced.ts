// The ADVANCED tab (spec 3 §2, §3, §5, §6, §9): general settings, daily limits, idle timeout,
// interruptions, voice activity detection (with the speech-to-speech variant) and OAuth info.
// The rules are plain functions (used by the form and by the server on save); the mappers move
// values between the avatar as saved and the form.
import { z } from 'zod';
import {
  DAILY_LIMIT_MAX_S,
  IDLE_TIMEOUT_DEFAULT_S,
  IDLE_TIMEOUT_MAX_S,
  WORDS_PER_SECOND_DEFAULT,
  WORDS_PER_SECOND_MAX,
} from '../brain-limits';
import { SubscriptionType } from '../plans';
import { INTERRUPT_OPTIONS, REALTIME_VAD_OPTIONS, VAD_OPTIONS, defaultsOf, type NumberOption } from '../providers';
import type { InterruptHandlingBlock, VadOptionsBlock } from './brain';
import { HTTP_URL_PATTERN, toNumber, type Issue, type NumberInput } from './brain-forms';

export const ADVANCED_MESSAGES = {
  invalidForm: 'Invalid advance tab form',
  wakeUpRequired: 'Wake Up Message is required',
  wakeUpTooLong: 'Wake Up Message must be at most 2000 characters',
  required: 'This field is required',
  mustBeNumber: 'Must be a number',
  mustBePositive: 'Must be a positive number',
  notNegative: 'Must be 0 or more',
  zeroToOne: 'Must be between 0.0 and 1.0',
  wholeNumber: 'Must be a whole number',
  wordsPerSecond: `Words Spoken Per Second must be a positive number up to ${WORDS_PER_SECOND_MAX}`,
  idleRequired: 'Idle timeout is required',
  idleInteger: 'Idle timeout should be an integer',
  idleMax: 'Idle timeout cannot be more than 600 seconds',
  idleMin: 'Idle timeout must be greater than 0 or -1 for unlimited',
  oauthEnabledRequired: 'OAuth Enabled is required',
  oauthIdRequired: 'Customer OAuth Config ID is required',
  oauthIdNumber: 'Customer OAuth Config ID must be Number',
  notValidUrl: 'Not a valid URL',
  billingHeaderRequired: 'Billing Authorization Header is required',
} as const;

/** The three limits and their messages (spec 3 §5): the form's, checked as the user types, and
 *  the step validator's, which the server uses when a save brings a limit. */
export const DAILY_LIMIT_MESSAGES = {
  dailyLimitPerSession: {
    required: 'Daily Limit Per Session is required',
    range: 'Daily Limit Per Session must be greater than 0 or -1 for unlimited',
    stepRequired: 'Daily Limit Per Session is required.',
    notSeconds: 'Daily Limit Per Session must be a valid second.',
  },
  dailyLimitPerIP: {
    required: 'Daily Limit Per IP is required',
    range: 'Daily Limit Per IP must be greater than 0 or -1 for unlimited',
    stepRequired: 'Daily Limit is required.',
    notSeconds: 'Daily Limit must be a valid second.',
  },
  demoLimit: {
    required: 'Demo duration limit is required',
    range: 'Demo duration limit must be greater than 0 or -1 for unlimited',
    stepRequired: 'Demo duration limit is required.',
    notSeconds: 'Demo duration limit must be a valid second.',
  },
} as const;
export type DailyLimitField = keyof typeof DAILY_LIMIT_MESSAGES;

export const ENCRYPTION_OPTIONS = { default: 'Default', none: 'None' } as const;

/** Transcript download: realtime avatars on a PRO or ENTERPRISE web subscription (spec 3 §6). */
export function transcriptDownloadOffered(subscriptionType: number | undefined, realtime: boolean): boolean {
  return realtime && (subscriptionType === SubscriptionType.PRO || subscriptionType === SubscriptionType.ENTERPRISE);
}

export interface AdvancedForm {
  /** 'Default' (token in the URL), 'None', or the id of a created key. */
  encKeyId: string;
  wakeUpMessage: string;
  wordsPerSecond: NumberInput;
  transcriptionStreaming: boolean | null;
  enableTranscriptDownload: boolean | null;
  sendChatHistory: boolean | null;
  handleSttResponse: boolean | null;
  realtime: boolean;
  dailyLimitPerSession: NumberInput;
  dailyLimitPerIP: NumberInput;
  demoLimit: NumberInput;
  idleTimeout: NumberInput;
  interrupt_handling: { allow_interruptions: boolean; min_interruption_duration: NumberInput; min_interruption_words: NumberInput };
  vad_options: Record<string, NumberInput>;
  oauthEnabled: 0 | 1 | null;
  partnerOauthAppId: NumberInput;
  billingAuthURL: string;
  billingAuthHeader: string;
}

export interface AdvancedContext {
  /** Speech-to-speech avatars use the realtime voice-activity options. */
  speechToSpeech: boolean;
}

export function vadOptionsFor(ctx: AdvancedContext): readonly NumberOption[] {
  return ctx.speechToSpeech ? REALTIME_VAD_OPTIONS : VAD_OPTIONS;
}

function dailyLimitIssue(field: DailyLimitField, v: NumberInput, step: boolean): string | null {
  const m = DAILY_LIMIT_MESSAGES[field];
  const n = toNumber(v);
  if (n === undefined) return step ? m.stepRequired : m.required;
  if (Number.isNaN(n) || n < -1 || n === 0 || n > DAILY_LIMIT_MAX_S) return m.range;
  if (!Number.isInteger(n)) return m.notSeconds;
  return null;
}

function optionIssue(o: NumberOption, v: NumberInput): string | null {
  const n = toNumber(v);
  // Min interruption words: empty is allowed, otherwise a whole number of 0 or more.
  if (o.key === 'min_interruption_words') {
    if (n === undefined) return null;
    if (Number.isNaN(n)) return ADVANCED_MESSAGES.mustBeNumber;
    return n < 0 || !Number.isInteger(n) ? ADVANCED_MESSAGES.notNegative : null;
  }
  if (n === undefined || Number.isNaN(n) || n <= 0) return ADVANCED_MESSAGES.mustBePositive;
  if (o.max !== undefined && n > o.max) return ADVANCED_MESSAGES.zeroToOne;
  if (o.kind === 'integer' && !Number.isInteger(n)) return ADVANCED_MESSAGES.wholeNumber;
  return null;
}

/** `step`: the save's check (the step validators' wording for a missing limit). */
export function validateAdvanced(f: AdvancedForm, ctx: AdvancedContext, step = false): Issue[] {
  const out: Issue[] = [];
  const add = (path: (string | number)[], message: string) => out.push({ path, message });
  if (!f.wakeUpMessage || !f.wakeUpMessage.trim()) add(['wakeUpMessage'], ADVANCED_MESSAGES.wakeUpRequired);
  else if (f.wakeUpMessage.length > 2000) add(['wakeUpMessage'], ADVANCED_MESSAGES.wakeUpTooLong);
  for (const k of ['sendChatHistory', 'handleSttResponse', 'transcriptionStreaming', 'enableTranscriptDownload'] as const) {
    if (typeof f[k] !== 'boolean') add([k], ADVANCED_MESSAGES.required);
  }
  const wps = toNumber(f.wordsPerSecond);
  if (wps === undefined || Number.isNaN(wps) || wps <= 0 || wps > WORDS_PER_SECOND_MAX)
    add(['wordsPerSecond'], ADVANCED_MESSAGES.wordsPerSecond);
  for (const field of Object.keys(DAILY_LIMIT_MESSAGES) as DailyLimitField[]) {
    const issue = dailyLimitIssue(field, f[field], step);
    if (issue) add([field], issue);
  }
  const idle = toNumber(f.idleTimeout);
  if (idle === undefined) add(['idleTimeout'], ADVANCED_MESSAGES.idleRequired);
  else if (Number.isNaN(idle) || !Number.isInteger(idle)) add(['idleTimeout'], ADVANCED_MESSAGES.idleInteger);
  else if (idle > IDLE_TIMEOUT_MAX_S) add(['idleTimeout'], ADVANCED_MESSAGES.idleMax);
  else if (idle < -1 || idle === 0) add(['idleTimeout'], ADVANCED_MESSAGES.idleMin);
  for (const o of INTERRUPT_OPTIONS) {
    if (o.kind === 'boolean') continue;
    const issue = optionIssue(o, f.interrupt_handling?.[o.key as 'min_interruption_duration']);
    if (issue) add(['interrupt_handling', o.key], issue);
  }
  for (const o of vadOptionsFor(ctx)) {
    const issue = optionIssue(o, f.vad_options?.[o.key]);
    if (issue) add(['vad_options', o.key], issue);
  }
  if (f.oauthEnabled !== 0 && f.oauthEnabled !== 1) add(['oauthEnabled'], ADVANCED_MESSAGES.oauthEnabledRequired);
  if (f.oauthEnabled === 1) {
    const id = toNumber(f.partnerOauthAppId);
    if (id === undefined) add(['partnerOauthAppId'], ADVANCED_MESSAGES.oauthIdRequired);
    else if (Number.isNaN(id) || !Number.isInteger(id) || id < 1) add(['partnerOauthAppId'], ADVANCED_MESSAGES.oauthIdNumber);
  }
  const billingUrl = (f.billingAuthURL ?? '').trim();
  if (billingUrl && !HTTP_URL_PATTERN.test(billingUrl)) add(['billingAuthURL'], ADVANCED_MESSAGES.notValidUrl);
  if (billingUrl && !(f.billingAuthHeader ?? '').trim()) add(['billingAuthHeader'], ADVANCED_MESSAGES.billingHeaderRequired);
  return out;
}

export function advancedFormSchema(ctx: AdvancedContext) {
  return z
    .custom<AdvancedForm>((v) => typeof v === 'object' && v !== null)
    .superRefine((value, c) => {
      for (const issue of validateAdvanced(value, ctx)) c.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    });
}

// ---- interruption and VAD blocks, with the older names accepted on load (spec 3 §3) ----

type Loose = Record<string, unknown>;
const numOr = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : fallback;

export function readInterruptHandling(raw: unknown): InterruptHandlingBlock {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Loose;
  const d = defaultsOf(INTERRUPT_OPTIONS);
  return {
    allow_interruptions: typeof r.allow_interruptions === 'boolean' ? r.allow_interruptions : (d.allow_interruptions as boolean),
    min_interruption_duration: numOr(r.min_interruption_duration ?? r.interrupt_speech_duration, d.min_interruption_duration as number),
    min_interruption_words: numOr(r.min_interruption_words ?? r.interrupt_min_words, d.min_interruption_words as number),
  };
}

/** The VAD options of the mode, saved values first, defaults for the rest (extra keys dropped). */
export function readVadOptions(raw: unknown, ctx: AdvancedContext): VadOptionsBlock {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Loose;
  return Object.fromEntries(vadOptionsFor(ctx).map((o) => [o.key, numOr(r[o.key], o.default as number)]));
}

/** The form's view: values as saved (so a bad one is reported, not replaced), defaults for the missing ones. */
function formInterruptHandling(raw: unknown): AdvancedForm['interrupt_handling'] {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Loose;
  const d = defaultsOf(INTERRUPT_OPTIONS);
  const given = (v: unknown, fallback: number): NumberInput =>
    typeof v === 'number' || typeof v === 'string' || v === null ? v : fallback;
  return {
    allow_interruptions: typeof r.allow_interruptions === 'boolean' ? r.allow_interruptions : (d.allow_interruptions as boolean),
    min_interruption_duration: given(r.min_interruption_duration ?? r.interrupt_speech_duration, d.min_interruption_duration as number),
    min_interruption_words: given(r.min_interruption_words ?? r.interrupt_min_words, d.min_interruption_words as number),
  };
}

function formVadOptions(raw: unknown, ctx: AdvancedContext): Record<string, NumberInput> {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Loose;
  return Object.fromEntries(
    vadOptionsFor(ctx).map((o) => [
      o.key,
      typeof r[o.key] === 'number' || typeof r[o.key] === 'string' ? (r[o.key] as NumberInput) : (o.default as number),
    ]),
  );
}

// ---- avatar ↔ form ----

/** The avatar fields this tab edits (spec 2 §3 names). */
export interface AvatarAdvancedFields {
  encKeyId?: string | null;
  wakeUpMessage?: string | null;
  sendChatHistory?: boolean;
  handleSttResponse?: boolean;
  realtime?: boolean;
  /** null: emptied by the user (required); a string: typed, not a number. */
  dailyLimitPerSession?: number | string | null;
  dailyLimitPerIP?: number | string | null;
  dailyLimits?: Record<string, number | string | null>;
  idleTimeout?: number | string | null;
  oauthEnabled?: 0 | 1;
  partnerOauthAppId?: string | null;
  billingAuthURL?: string | null;
  billingAuthHeader?: string | null;
  customData?: {
    words_per_sec?: number | string | null;
    transcriptionStreaming?: boolean;
    enable_transcript_download?: boolean;
    agent_pipeline_config?: unknown;
  };
}

export function advancedFromAvatar(a: AvatarAdvancedFields, ctx: AdvancedContext): AdvancedForm {
  const cd = a.customData ?? {};
  const pipeline = (
    typeof cd.agent_pipeline_config === 'object' && cd.agent_pipeline_config !== null ? cd.agent_pipeline_config : {}
  ) as Loose;
  return {
    encKeyId: a.encKeyId || ENCRYPTION_OPTIONS.default,
    wakeUpMessage: a.wakeUpMessage ?? '',
    wordsPerSecond: cd.words_per_sec ?? WORDS_PER_SECOND_DEFAULT,
    transcriptionStreaming: cd.transcriptionStreaming ?? false,
    enableTranscriptDownload: cd.enable_transcript_download ?? false,
    sendChatHistory: a.sendChatHistory ?? false,
    handleSttResponse: a.handleSttResponse ?? false,
    realtime: a.realtime ?? false,
    dailyLimitPerSession: a.dailyLimitPerSession === undefined ? -1 : a.dailyLimitPerSession,
    dailyLimitPerIP: a.dailyLimitPerIP === undefined ? -1 : a.dailyLimitPerIP,
    demoLimit: a.dailyLimits?.Demo === undefined ? -1 : a.dailyLimits.Demo,
    idleTimeout: a.idleTimeout === undefined ? IDLE_TIMEOUT_DEFAULT_S : a.idleTimeout,
    interrupt_handling: formInterruptHandling(pipeline.interrupt_handling),
    vad_options: formVadOptions(pipeline.vad_options, ctx),
    oauthEnabled: a.oauthEnabled === 1 ? 1 : 0,
    partnerOauthAppId: a.partnerOauthAppId ?? '',
    billingAuthURL: a.billingAuthURL ?? '',
    billingAuthHeader: a.billingAuthHeader ?? '',
  };
}

/** A number where the input is one, nothing for an empty field, otherwise the text as typed:
 *  the editor keeps what the user typed (a tab opened again shows it, the checks report it). */
export function asTyped(v: NumberInput): number | string | null {
  const n = toNumber(v);
  if (n === undefined) return null;
  return Number.isNaN(n) ? String(v) : n;
}

/** The form as avatar fields: numbers as numbers, anything else as typed; the pipeline parts for customData. */
export function advancedToAvatar(f: AdvancedForm, ctx: AdvancedContext) {
  const ih = f.interrupt_handling;
  return {
    encKeyId: f.encKeyId,
    wakeUpMessage: f.wakeUpMessage.trim(),
    sendChatHistory: Boolean(f.sendChatHistory),
    handleSttResponse: Boolean(f.handleSttResponse),
    realtime: f.realtime,
    dailyLimitPerSession: asTyped(f.dailyLimitPerSession),
    dailyLimitPerIP: asTyped(f.dailyLimitPerIP),
    demoLimit: asTyped(f.demoLimit),
    idleTimeout: asTyped(f.idleTimeout),
    oauthEnabled: f.oauthEnabled === 1 ? (1 as const) : (0 as const),
    partnerOauthAppId: f.oauthEnabled === 1 ? String(asTyped(f.partnerOauthAppId) ?? '') || null : null,
    billingAuthURL: f.billingAuthURL.trim() || null,
    billingAuthHeader: f.billingAuthHeader.trim() || null,
    words_per_sec: asTyped(f.wordsPerSecond) ?? WORDS_PER_SECOND_DEFAULT,
    transcriptionStreaming: Boolean(f.transcriptionStreaming),
    enable_transcript_download: Boolean(f.enableTranscriptDownload),
    interrupt_handling: {
      allow_interruptions: ih.allow_interruptions,
      min_interruption_duration: asTyped(ih.min_interruption_duration),
      min_interruption_words: asTyped(ih.min_interruption_words),
    },
    vad_options: Object.fromEntries(vadOptionsFor(ctx).map((o) => [o.key, asTyped(f.vad_options?.[o.key])])),
  };
}
