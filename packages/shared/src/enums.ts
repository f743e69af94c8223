// Enumerations of spec 1 §3, spec 2 §3 and spec 3 §3, with their numeric values.

export const PRODUCT_NAME = 'Parla';

export const UserType = { Admin: 'ADMIN', Customer: 'CUSTOMER' } as const;
export type UserType = (typeof UserType)[keyof typeof UserType];

/** The administrators' group name (spec 1 §3: "a fixed constant"). */
export const ADMIN_GROUP_NAME = 'parla-administrators';

export const AccountStatus = { Active: 'ACTIVE', Suspended: 'SUSPENDED' } as const;
export type AccountStatus = (typeof AccountStatus)[keyof typeof AccountStatus];

export const SpeechVoiceProvider = {
  Polly: 0,
  Azure: 1,
  ElevenLabs: 2,
  Default: 3,
  None: 4,
  Cartesia: 5,
  Neuphonic: 6,
} as const;
export type SpeechVoiceProvider = (typeof SpeechVoiceProvider)[keyof typeof SpeechVoiceProvider];

export const AiMode = { Simple: 0, Composite: 1, SpeechToSpeech: 2, None: 3 } as const;
export type AiMode = (typeof AiMode)[keyof typeof AiMode];
/** The names used in the saved avatar (setupMode). */
export const SETUP_MODES = ['Simple', 'Composite', 'SpeechToSpeech', 'None'] as const;
export type SetupMode = (typeof SETUP_MODES)[number];

export const KnowledgeSourceType = { None: 0, String: 1, File: 2 } as const;
export type KnowledgeSourceType = (typeof KnowledgeSourceType)[keyof typeof KnowledgeSourceType];

export const AvatarEngine = {
  EchoTest: 0,
  RestEndpoint: 1,
  DialogflowES: 2,
  DialogflowCX: 3,
  CustomChatGPTPrompt: 6,
  CustomChatGPTAssistant: 7,
  Ten: 8,
  ParlaRealtime: 9,
  LargeLanguageModel: 10,
  ElevenLabsConversationAI: 11,
  CUSTOM_STT_LLM_TTS: 12,
} as const;
export type AvatarEngine = (typeof AvatarEngine)[keyof typeof AvatarEngine];

export const AVATAR_ENGINE_NAMES: Record<AvatarEngine, string> = {
  [AvatarEngine.EchoTest]: 'Echo',
  [AvatarEngine.RestEndpoint]: 'REST Endpoint',
  [AvatarEngine.DialogflowES]: 'Dialogflow ES',
  [AvatarEngine.DialogflowCX]: 'Dialogflow CX',
  [AvatarEngine.CustomChatGPTPrompt]: 'Custom ChatGPT Prompt',
  [AvatarEngine.CustomChatGPTAssistant]: 'Custom ChatGPT Assistant',
  [AvatarEngine.Ten]: 'Agora TEN',
  [AvatarEngine.ParlaRealtime]: `${PRODUCT_NAME} Realtime`,
  [AvatarEngine.LargeLanguageModel]: 'Large Language Model',
  [AvatarEngine.ElevenLabsConversationAI]: 'ElevenLabs Conversational AI',
  [AvatarEngine.CUSTOM_STT_LLM_TTS]: 'Custom STT/LLM/TTS',
};

export const SttProvider = { Default: 0, Google: 1, Azure: 2, Deepgram: 3, None: 4 } as const;
export type SttProvider = (typeof SttProvider)[keyof typeof SttProvider];

/** Avatar types (spec 2 §3): 2d = upper body 3D, 3d = full body 3D, image, vba = video. */
export const DH_TYPES = ['image', '2d', '3d', 'vba'] as const;
export type DhType = (typeof DH_TYPES)[number];
