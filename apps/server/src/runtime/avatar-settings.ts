// The avatar settings that act on a conversation beyond its engine (issue 13, docs/settings.md):
// the wake-up message, the permission bits, transcription streaming, the transcript download,
// summaries and the billing authorisation. Read from the saved avatar by settingsOf; a resolved
// avatar without them (tests' own avatars) behaves as before: none of them acts.
import { AvatarPermission, hasPermission } from '@parla/shared/schemas/avatar';
import { DEFAULT_BILLING_AUTH_PING_TIME } from '@parla/shared/limits';

export interface BillingAuth {
  url: string;
  /** The Authorization header's whole value, decrypted in memory only. */
  header: string;
  /** Seconds between pings (billingAuthPingTime). */
  pingSeconds: number;
}

export interface AvatarSettings {
  /** The hidden first turn the brain answers as its greeting; '' = none. */
  wakeUpMessage: string;
  /** Bit 2: recognised speech goes to the host page, which sends it (or not). */
  handleSttResponse: boolean;
  /** Interim transcripts and the avatar's words as spoken reach the player. */
  transcriptionStreaming: boolean;
  /** The player offers the end user their transcript (realtime avatars on PRO/ENTERPRISE). */
  transcriptDownload: boolean;
  /** A summary is written at the end and remembered for the same verified end user. */
  summaryEnabled: boolean;
  billingAuth: BillingAuth | null;
  /** The language the brain answers in (agentLanguage), e.g. 'en' or 'fr-FR'. */
  agentLanguage: string;
}

export const NO_SETTINGS: AvatarSettings = {
  wakeUpMessage: '',
  handleSttResponse: false,
  transcriptionStreaming: false,
  transcriptDownload: false,
  summaryEnabled: false,
  billingAuth: null,
  agentLanguage: '',
};

/** Ping times outside 5 s … 1 day fall back to the default (the field allows -1 and 0). */
export function pingSeconds(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 5 && v <= 86_400 ? v : DEFAULT_BILLING_AUTH_PING_TIME;
}

export interface SettingsSource {
  wake_up_message: string | null;
  permissions: number;
  realtime: boolean;
  agent_language: string;
  billing_auth_url: string | null;
  billing_auth_ping_time: number;
  custom_data: unknown;
}

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : {});

/** The transcript download is offered only to realtime avatars on a PRO or ENTERPRISE plan (spec 2 §6, spec 3 §6). */
export function transcriptDownloadAllowed(row: Pick<SettingsSource, 'realtime' | 'custom_data'>, planName: string | null): boolean {
  return obj(row.custom_data).enable_transcript_download === true && row.realtime && (planName === 'PRO' || planName === 'ENTERPRISE');
}

export function settingsOf(row: SettingsSource, planName: string | null, billingHeader: string | null): AvatarSettings {
  const custom = obj(row.custom_data);
  const llm = obj(obj(custom.agent_pipeline_config).llm);
  const summary = custom.summaryEnabled ?? llm.summary_enabled;
  const url = (row.billing_auth_url ?? '').trim();
  return {
    wakeUpMessage: (row.wake_up_message ?? '').trim(),
    handleSttResponse: hasPermission(row.permissions, AvatarPermission.canHandleSttResponse),
    transcriptionStreaming: custom.transcriptionStreaming === true,
    transcriptDownload: transcriptDownloadAllowed(row, planName),
    summaryEnabled: summary === undefined ? true : summary === true || summary === 'true',
    billingAuth: url ? { url, header: billingHeader ?? '', pingSeconds: pingSeconds(row.billing_auth_ping_time) } : null,
    agentLanguage: (row.agent_language || '').trim(),
  };
}
