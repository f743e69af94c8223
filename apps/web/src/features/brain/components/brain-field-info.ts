// What the information panel says for each Brain field (spec 3 §2: "Clicking a field opens an
// information panel for that field").
import type { FieldInfo } from '../../../components/info-panel';
import { PRODUCT_NAME } from '@parla/shared/enums';

export const BRAIN_INFO = {
  mode: {
    title: 'Mode',
    description: 'How the avatar listens, thinks and speaks. Switching the mode puts back the speech and language settings last saved.',
    possibleValues: [
      'Simple: product-provided speech-to-text, LLM and text-to-speech',
      'Composite: any speech-to-text, LLM and text-to-speech',
      'Speech to Speech: multimodal LLMs',
      '3rd Party AI: third-party conversational frameworks',
    ],
  },
  engine: {
    title: 'Avatar Engine',
    description: 'The conversational back end that writes the avatar’s replies.',
    whyImportant: 'Only the engines of the chosen mode are offered; when the current one is not, the first offered engine is selected.',
  },
  llmUrl: {
    title: 'Base URL',
    description: 'The OpenAI-compatible address of the language model provider. Changing it clears the model, key and assistant.',
    possibleValues: [
      'OpenAI',
      'Groq',
      'Gemini',
      'Cerebras',
      'DeepSeek',
      'Fireworks',
      'Perplexity',
      'Telnyx',
      'Together',
      'xAI',
      'Custom (OpenAI-compatible), in Composite mode',
    ],
  },
  customUrl: {
    title: 'Custom base URL',
    description:
      'The address of any OpenAI-compatible API (a self-hosted model server or a gateway), up to and including its version path; chat completions are sent to {base URL}/chat/completions.',
    possibleValues: ['https://llm.example.com/v1'],
    whyImportant:
      'It must be reachable from the internet over https: private, loopback and internal addresses are refused. Changing it clears the model and a stored key.',
  },
  customModel: {
    title: 'Model',
    description: 'The model name exactly as your server expects it in the "model" field of a chat completion.',
  },
  llmKey: {
    title: 'API Key',
    description: 'The key of your account at the provider. It is stored encrypted and shown masked; leave the masked value to keep it.',
    whyImportant: 'The model list is read with this key.',
  },
  llmModel: { title: 'Model', description: 'The model that writes the replies, as listed by the provider for your key.' },
  interactionType: {
    title: 'Interaction type',
    description: 'Prompt: the avatar follows the instructions below. Assistant: the avatar uses one of your OpenAI assistants.',
    possibleValues: ['prompt', 'assistant'],
    whyImportant: 'Offered in Composite mode on the OpenAI base URL for avatars without the realtime flag.',
  },
  assistant: { title: 'Assistant', description: 'One of the assistants of your OpenAI account, newest first.' },
  prompt: {
    title: 'Instructions',
    description: 'The system prompt: who the avatar is and how it answers. Short spoken replies work best.',
  },
  memory: {
    title: 'Avatar Memory',
    description: 'What the avatar always knows about itself and its business, added to every conversation.',
  },
  summary: {
    title: 'Remember conversations',
    description:
      "At the end of each conversation the avatar's language model (or the product's) writes a short summary, shown beside its transcript. When the same signed-in end user (the userId of a signed access token) talks to the avatar again, the last summary is given to the brain as memory.",
  },
  maxTokens: { title: 'Max tokens', description: 'The longest reply, in tokens. A whole number greater than 0.' },
  agentLanguage: {
    title: 'Agent language',
    description:
      'The language the engine answers in: sent to REST endpoints (language) and Dialogflow (languageCode), and added to the instructions of language models and realtime engines.',
  },
  restUrl: {
    title: 'REST Endpoint URL',
    description: `${PRODUCT_NAME} posts LOGIN, CHAT and LOGOUT events to this address; the reply to CHAT is spoken.`,
  },
  restKey: {
    title: 'REST API Key',
    description: 'Sent as a bearer token with every event, so your endpoint knows the call is ours. Stored encrypted.',
  },
  dfProject: { title: 'Dialogflow Project Id', description: 'The Google Cloud project of the agent.' },
  dfAgent: { title: 'Dialogflow Agent Id', description: 'The id of the Dialogflow CX agent.' },
  dfRegion: { title: 'Dialogflow Region Id', description: 'The location of the CX agent, e.g. global or us-central1.' },
  dfKey: { title: 'Dialogflow JSON Key', description: 'The service account key file (JSON) with access to the agent. Stored encrypted.' },
  realtimeUrl: { title: 'Base URL', description: 'The speech-to-speech service.', possibleValues: ['OpenAI', 'Gemini'] },
  realtimeModel: { title: 'Model', description: 'The multimodal model that listens and speaks.' },
  realtimeVoice: { title: 'Voice', description: 'The model’s own voice: eight for OpenAI, five for Gemini.' },
  greeting: { title: 'Greeting', description: 'What the avatar says first.' },
  agentId: { title: 'Agent ID', description: 'The id of your ElevenLabs Conversational AI agent. It is checked as you type.' },
  agentKey: { title: 'API Key', description: 'Needed only for private agents. Stored encrypted.' },
  agoraAppId: { title: 'Agora App ID', description: 'The App ID of your Agora project, where the TEN agent and the user meet.' },
  agoraCertificate: { title: 'Agora App Certificate', description: 'Signs the channel tokens of your Agora project. Stored encrypted.' },
  connectionType: {
    title: 'Connection type',
    description: 'How the conversation reaches ElevenLabs.',
    possibleValues: ['webrtc', 'websocket'],
  },
  sttProvider: {
    title: 'Speech to Text provider',
    description: 'Who turns the user’s speech into text. Changing it clears the key, region, phrases and model.',
  },
  sttLanguage: { title: 'Language', description: 'The language the user speaks. Multilingual models detect up to 10 languages.' },
  sttAdditional: {
    title: 'Additional languages',
    description:
      "Further languages the user may speak, at most 10: given to the pipeline's speech-to-text provider with the primary language. The browser's own recognition hears the primary language only.",
  },
  sttKey: { title: 'API Key', description: 'The key of your speech-to-text account. Stored encrypted.' },
  sttKeyFile: {
    title: 'Google JSON key file',
    description: 'The service account key file of your Google Cloud project. Stored encrypted.',
  },
  sttRegion: { title: 'Region', description: 'Where the speech service runs.' },
  sttModel: { title: 'Model', description: 'The recognition model. flux-general-en is for English only.' },
  sttPhrases: { title: 'Context phrases', description: 'Names and terms the recogniser should expect, one per line.' },
  deepgramEndpoint: { title: 'Endpointing', description: 'Milliseconds of silence that end an utterance. A whole number greater than 0.' },
  ttsProvider: {
    title: 'Text to Speech provider',
    description: 'Who speaks the replies. Changing it clears the keys, region, voice and model.',
  },
  ttsVoice: { title: 'Voice', description: 'The voice of the avatar, as listed by the provider for your keys.' },
  ttsRegion: { title: 'Region', description: 'Where the speech service runs.' },
  ttsSpeed: { title: 'Speech speed', description: 'Relative speed: -1 slowest, 0 normal, 1 fastest.' },
  ttsModel: { title: 'Model', description: 'The provider’s speech model.' },
  ttsKey: { title: 'API Key', description: 'The key of your text-to-speech account. Stored encrypted.' },
  pollyAccess: { title: 'Access Key', description: 'The AWS access key id with Polly access.' },
  pollySecret: { title: 'Secret Key', description: 'The AWS secret access key. Stored encrypted.' },
  neuphonicLang: { title: 'Language', description: 'The language of the Neuphonic voice.' },
} satisfies Record<string, FieldInfo>;
