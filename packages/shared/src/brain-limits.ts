// Business constants of the Brain and Advanced tabs (spec 3 §9), each with its reason. Kept apart
// from limits.ts so the brain area's numbers are read in one place.

/** Idle calls end after 5 minutes by default; the admin-proxy desk may set up to 600 s. */
export const IDLE_TIMEOUT_DEFAULT_S = 300;
export const IDLE_TIMEOUT_MAX_S = 600;

/** Daily and demo limits are seconds; -1 means unlimited. Unticking Unlimited restores the
 *  previous value, or this one when there was none. */
export const UNLIMITED = -1;
export const UNLIMITED_RESTORE_DEFAULT_S = 600;
/** The largest limit a person can type (about 31 years): keeps the value inside an int column. */
export const DAILY_LIMIT_MAX_S = 1_000_000_000;

/** Speaking rate used to time subtitles and lip-sync when the voice gives no timings. */
export const WORDS_PER_SECOND_DEFAULT = 3;
export const WORDS_PER_SECOND_MAX = 10;

/** Interruptions (LiveKit Agents' names and defaults). */
export const INTERRUPTION_DURATION_DEFAULT_S = 0.5;
export const INTERRUPTION_MIN_WORDS_DEFAULT = 0;

/** Speech-to-text: the primary language plus at most this many; a multilingual model detects
 *  this many languages on its own. */
export const STT_ADDITIONAL_LANGUAGES_MAX = 10;
export const STT_MULTILINGUAL_DETECTS = 10;
export const STT_CONTEXT_PHRASES_MAX_CHARS = 10_000;

/** Speech speed is relative: -1 slowest, 0 normal, 1 fastest (Neuphonic starts at 1). */
export const SPEECH_SPEED_MIN = -1;
export const SPEECH_SPEED_MAX = 1;

/** The agent-id check waits for typing to pause; ids and keys shorter than these cannot be
 *  real, so they are not sent to the provider. */
export const AGENT_CHECK_DEBOUNCE_MS = 500;
export const AGENT_ID_MIN_LENGTH = 12;
export const AGENT_API_KEY_MIN_LENGTH = 16;
/** Neuphonic voices are listed once the key is longer than this. */
export const NEUPHONIC_KEY_MIN_LENGTH = 8;
/** Assistants are listed this long after the key is available (lets typing finish). */
export const ASSISTANT_FETCH_DELAY_MS = 1000;
/** Voices reload this long after a provider, key or region change. */
export const VOICES_RELOAD_DELAY_MS = 600;

/** Product-provided pipeline models (spec 3 §9: default sttModel 0, ttsModel 1). */
export const DEFAULT_STT_MODEL = 0;
export const DEFAULT_TTS_MODEL = 1;

/** LLM answers: max tokens, and the largest prompt and memory a form accepts. */
export const LLM_MAX_TOKENS_DEFAULT = 1024;
export const LLM_MAX_TOKENS_MAX = 1_000_000;
export const LLM_PROMPT_MAX_CHARS = 100_000;
export const LLM_MEMORY_MAX_CHARS = 100_000;
/** A Dialogflow or Google service-account JSON key is a few kilobytes. */
export const JSON_KEY_MAX_CHARS = 100_000;

/** The default system prompt keeps spoken replies short. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a friendly, helpful assistant speaking out loud through an avatar. Reply in 15 to 35 words, in plain sentences without lists or markdown.';

/** What a new LLM or REST avatar remembers until its owner writes its memory (the field is
 *  required, spec 3 §5, and a new avatar should save as it is). */
export const DEFAULT_AVATAR_MEMORY = 'Nothing to remember yet.';

/** Provider look-ups made by the server: short, small, and never followed far. */
export const LOOKUP_TIMEOUT_MS = 10_000;
export const LOOKUP_MAX_BYTES = 4 * 1024 * 1024;
/** Paged voice lists (Cartesia, Polly) stop after this many pages. */
export const LOOKUP_MAX_PAGES = 20;
