// What the information panel says for each ADVANCED field.
import type { FieldInfo } from '../../../components/info-panel';
import { IDLE_TIMEOUT_MAX_S, UNLIMITED_RESTORE_DEFAULT_S } from '@parla/shared/brain-limits';

export const ADVANCED_INFO = {
  encKeyId: { title: 'Encryption', description: 'How access to a private avatar is proven.', possibleValues: ['Default: the token in the URL', 'None: anyone with the link', 'A created key: signed tokens from your server'] },
  wakeUpMessage: { title: 'Wake Up Message', description: 'What the avatar says when a conversation starts.' },
  wordsPerSecond: { title: 'Words Spoken Per Second', description: 'Speaking rate used to time subtitles and lip-sync when the voice gives no timings (default 3).' },
  transcriptionStreaming: { title: 'Transcription streaming', description: 'Show the user’s words while they speak, not only when they finish.' },
  transcriptDownload: { title: 'Transcript download', description: 'Let users download the conversation transcript. For realtime avatars on a PRO or ENTERPRISE plan.' },
  realtime: { title: 'Realtime', description: 'The new avatar type. Some fields are not supported for legacy avatars.' },
  sendChatHistory: { title: 'Send Chat History', description: 'Send the conversation so far with every message to the engine.' },
  handleSttResponse: { title: 'Handle STT Response', description: 'Let the engine receive the raw speech-to-text results.' },
  dailyLimitPerSession: { title: 'Daily Limit Per Session', description: 'Seconds one session may talk per day; then the avatar switches to echo-back. -1 is unlimited.', whyImportant: `Unticking Unlimited restores the previous value (${UNLIMITED_RESTORE_DEFAULT_S} s the first time).` },
  dailyLimitPerIP: { title: 'Daily Limit Per IP', description: 'Seconds one address may talk per day; then the avatar switches to echo-back. -1 is unlimited.' },
  demoLimit: { title: 'Demo duration limit', description: 'Seconds a demo conversation may last; then it disconnects. -1 is unlimited.' },
  idleTimeout: { title: 'Idle timeout', description: `Seconds of silence after which a call ends (default 300, at most ${IDLE_TIMEOUT_MAX_S}). Only administrators change it.` },
  oauthEnabled: { title: 'OAuth Enabled', description: 'End users sign in with your OAuth configuration before talking to the avatar.' },
  partnerOauthAppId: { title: 'Customer OAuth Config ID', description: 'The number of one of your OAuth configurations.' },
  billingAuthURL: { title: 'Billing URL', description: 'Your endpoint the runtime pings while a conversation runs, to authorise its billing.' },
  billingAuthHeader: { title: 'Billing Authorization Header', description: 'Sent with every billing ping. Stored encrypted.' },
} satisfies Record<string, FieldInfo>;
