// What the information panel says for each ADVANCED field.
import type { FieldInfo } from '../../../components/info-panel';
import { IDLE_TIMEOUT_MAX_S, UNLIMITED_RESTORE_DEFAULT_S } from '@parla/shared/brain-limits';

export const ADVANCED_INFO = {
  encKeyId: {
    title: 'Encryption',
    description: 'How access to a private avatar is proven.',
    possibleValues: ['Default: the token in the URL', 'None: anyone with the link', 'A created key: signed tokens from your server'],
  },
  wakeUpMessage: {
    title: 'Wake Up Message',
    description:
      "Sent to the avatar's brain as the first, hidden turn when a conversation opens; the brain's answer is the avatar's greeting.",
    possibleValues: [
      'Echo: repeats it',
      'REST endpoint: the first CHAT, right after LOGIN',
      'LLM, Dialogflow, realtime: answer it',
      'A realtime greeting, when set, is said instead',
    ],
  },
  wordsPerSecond: {
    title: 'Words Spoken Per Second',
    description: 'Speaking rate used to time subtitles and lip-sync when the voice gives no timings (default 3).',
  },
  transcriptionStreaming: {
    title: 'Transcription streaming',
    description:
      'On: the user’s words are shown (and sent to the host page as sttInterim) while they speak, and the avatar’s reply appears as it is spoken. Off: only finished texts are shown.',
  },
  transcriptDownload: {
    title: 'Transcript download',
    description:
      'Adds a download button to the player so the end user can save their own conversation as a text file. For realtime avatars on a PRO or ENTERPRISE plan; off, the player has no button and the server refuses the download.',
  },
  realtime: { title: 'Realtime', description: 'The new avatar type. Some fields are not supported for legacy avatars.' },
  sendChatHistory: {
    title: 'Send Chat History',
    description:
      'Your REST endpoint gets the conversation so far (history: role, text, time) with every event; Dialogflow gets it as the session parameter history. At most the last 50 messages and 32 KB.',
    whyImportant: 'Language models always keep their own conversation context, whatever this says.',
  },
  handleSttResponse: {
    title: 'Handle STT Response',
    description:
      'What the player recognised is not sent to the avatar: it is posted to your host page as {source: "parla-player", event: "sttResponse", data: {text}}; your page sends it with sendChat, changed or not, or drops it.',
  },
  dailyLimitPerSession: {
    title: 'Daily Limit Per Session',
    description: 'Seconds one session may talk per day; then the avatar switches to echo-back. -1 is unlimited.',
    whyImportant: `Unticking Unlimited restores the previous value (${UNLIMITED_RESTORE_DEFAULT_S} s the first time).`,
  },
  dailyLimitPerIP: {
    title: 'Daily Limit Per IP',
    description: 'Seconds one address may talk per day; then the avatar switches to echo-back. -1 is unlimited.',
  },
  demoLimit: { title: 'Demo duration limit', description: 'Seconds a demo conversation may last; then it disconnects. -1 is unlimited.' },
  idleTimeout: {
    title: 'Idle timeout',
    description: `Seconds of silence after which a call ends (default 300, at most ${IDLE_TIMEOUT_MAX_S}). Only administrators change it.`,
  },
  oauthEnabled: { title: 'OAuth Enabled', description: 'End users sign in with your OAuth configuration before talking to the avatar.' },
  partnerOauthAppId: { title: 'Customer OAuth Config ID', description: 'The number of one of your OAuth configurations.' },
  billingAuthURL: {
    title: 'Billing URL',
    description:
      'Called with POST {event: start|ping, sessionId, avatarId, userId, deviceId} when a conversation opens and every ping period (default 30 s). A 401, 402 or 403 (or {"authorized": false}) ends the conversation; so do three failed calls in a row. Private addresses are refused.',
  },
  billingAuthHeader: {
    title: 'Billing Authorization Header',
    description: 'The Authorization header of every billing call, as written (e.g. "Bearer …"). Stored encrypted.',
  },
} satisfies Record<string, FieldInfo>;
