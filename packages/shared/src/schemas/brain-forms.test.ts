import { describe, expect, it } from 'vitest';
import { AvatarEngine, SpeechVoiceProvider, SttProvider } from '../enums';
import { buildBrainCatalogue } from '../provider-urls';
import { BRAIN_MESSAGES as M } from './brain';
import { brainFormSchema, validateBrain, type BrainForm } from './brain-forms';
import { defaultBrainForm } from './brain-pipeline';

const catalogue = buildBrainCatalogue();
const groq = catalogue.llmProviders.find((p) => p.id === 'groq')!.baseUrl;
const openaiRealtime = catalogue.realtimeProviders[0]!;

function form(patch: (f: BrainForm) => void): BrainForm {
  const f = defaultBrainForm();
  patch(f);
  return f;
}

const messages = (f: BrainForm) => validateBrain(f, catalogue).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('brain form rules (spec 3 §5)', () => {
  it('accepts a new echo avatar as it is', () => {
    expect(messages(defaultBrainForm())).toEqual([]);
  });

  it('requires a known engine', () => {
    expect(messages(form((f) => (f.nlpEngine = 99)))).toEqual([`nlpEngine: ${M.engineRequired}`]);
  });

  it('checks the LLM form in Composite mode', () => {
    const f = form((f) => {
      f.setupMode = 'Composite';
      f.nlpEngine = AvatarEngine.LargeLanguageModel;
      f.llmDetails.url = '';
      f.llmDetails.llmMaxTokens = '1.5';
      f.llmDetails.interactionType = 'assistant';
      f.llmDetails.custom_text = '';
    });
    expect(messages(f)).toEqual([
      `llmDetails.url: ${M.baseUrlRequired}`,
      `llmDetails.llmAPIKey: ${M.apiKeyRequired}`,
      `llmDetails.llmModel: ${M.modelRequired}`,
      `llmDetails.llmAssistantId: ${M.assistantRequired}`,
      `llmDetails.custom_text: ${M.memoryRequired}`,
      `llmDetails.llmMaxTokens: ${M.integer}`,
    ]);
    f.llmDetails.llmMaxTokens = 0;
    f.llmDetails.url = 'https://evil.example/v1';
    expect(messages(f)).toContain(`llmDetails.llmMaxTokens: ${M.positive}`);
    expect(messages(f)).toContain(`llmDetails.url: ${M.baseUrlUnknown}`);
  });

  it('needs neither base URL nor key in Simple mode', () => {
    const f = form((f) => {
      f.nlpEngine = AvatarEngine.LargeLanguageModel;
      f.llmDetails.url = '';
      f.llmDetails.llmModel = 'llama-3.3-70b-versatile';
    });
    expect(messages(f)).toEqual([]);
  });

  it('uses the older messages for the legacy ChatGPT engines', () => {
    const f = form((f) => {
      f.setupMode = 'Composite';
      f.nlpEngine = AvatarEngine.CustomChatGPTPrompt;
      f.llmDetails = { ...f.llmDetails, llmProvider: '', llmAPIKey: '', llmModel: '', llmPrompt: '' };
    });
    expect(messages(f)).toEqual([
      `llmDetails.llmProvider: ${M.legacyProviderRequired}`,
      `llmDetails.llmAPIKey: ${M.legacyKeyRequired}`,
      `llmDetails.llmModel: ${M.legacyModelRequired}`,
      `llmDetails.llmPrompt: ${M.legacyPromptRequired}`,
    ]);
  });

  it('checks the REST form', () => {
    const f = form((f) => {
      f.nlpEngine = AvatarEngine.RestEndpoint;
      f.restEndpoint.custom_text = ' ';
    });
    expect(messages(f)).toEqual([
      `restEndpoint.base_url: ${M.restUrlRequired}`,
      `restEndpoint.api_key: ${M.restKeyRequired}`,
      `restEndpoint.custom_text: ${M.memoryRequired}`,
    ]);
    f.restEndpoint = { ...f.restEndpoint, base_url: 'ftp://x', api_key: 'k', custom_text: 'm' };
    expect(messages(f)).toEqual([`restEndpoint.base_url: ${M.notValidUrl}`]);
  });

  it('checks Dialogflow ES and CX', () => {
    const es = form((f) => {
      f.setupMode = 'Composite';
      f.nlpEngine = AvatarEngine.DialogflowES;
    });
    expect(messages(es)).toEqual([`dialogFlowES.project_id: ${M.dfProjectRequired}`, `dialogFlowES.api_key: ${M.dfKeyRequired}`]);
    const cx = form((f) => {
      f.setupMode = 'Composite';
      f.nlpEngine = AvatarEngine.DialogflowCX;
    });
    expect(messages(cx)).toEqual([
      `dialogFlowCX.project_id: ${M.dfProjectRequired}`,
      `dialogFlowCX.agent_id: ${M.dfAgentRequired}`,
      `dialogFlowCX.region_id: ${M.dfRegionRequired}`,
      `dialogFlowCX.api_key: ${M.dfKeyRequired}`,
    ]);
  });

  it('checks the realtime form against the offered models and voices', () => {
    const f = form((f) => {
      f.setupMode = 'SpeechToSpeech';
      f.nlpEngine = AvatarEngine.ParlaRealtime;
    });
    expect(messages(f)).toEqual([
      `realtimeDetails.url: ${M.baseUrlRequired}`,
      `realtimeDetails.api_key: ${M.apiKeyRequired}`,
      `realtimeDetails.model: ${M.modelRequired}`,
      `realtimeDetails.voice_id: ${M.voiceRequired}`,
    ]);
    f.realtimeDetails = {
      ...f.realtimeDetails,
      url: openaiRealtime.url,
      api_key: 'sk-x',
      model: openaiRealtime.models[0]!,
      voice_id: 'Puck',
    };
    expect(messages(f)).toEqual([`realtimeDetails.voice_id: ${M.voiceRequired}`]);
    f.realtimeDetails.voice_id = 'alloy';
    expect(messages(f)).toEqual([]);
  });

  it('checks the third-party agent by its check status', () => {
    const f = form((f) => {
      f.setupMode = 'None';
      f.nlpEngine = AvatarEngine.ElevenLabsConversationAI;
    });
    const tp = f.elevenLabsConversationAI;
    expect(messages(f)).toEqual([`elevenLabsConversationAI.agent_id: ${M.agentIdRequired}`]);
    tp.agent_id = 'short';
    expect(messages(f)).toEqual([`elevenLabsConversationAI.agent_id: ${M.agentIdTooShort}`]);
    tp.agent_id = 'agent_0123456789';
    tp.status = 'invalid_agent_id';
    expect(messages(f)).toEqual([`elevenLabsConversationAI.agent_id: ${M.agentIdInvalid}`]);
    tp.status = 'invalid_api_key';
    expect(messages(f)).toEqual([`elevenLabsConversationAI.api_key: ${M.agentKeyInvalid}`]);
    tp.status = 'private';
    tp.api_key = 'too-short';
    expect(messages(f)).toEqual([`elevenLabsConversationAI.api_key: ${M.agentKeyRequired}`]);
    tp.api_key = '••••abcd';
    expect(messages(f)).toEqual([]);
    tp.status = 'public';
    tp.api_key = '';
    expect(messages(f)).toEqual([]);
  });

  it('checks STT per provider outside Simple mode', () => {
    const f = form((f) => {
      f.setupMode = 'Composite';
      f.sttDetails.sttProvider = null;
    });
    expect(messages(f)).toEqual([`sttDetails.sttProvider: ${M.sttProviderRequired}`]);
    f.sttDetails = { ...f.sttDetails, sttProvider: SttProvider.Google, sttLanguage: '' };
    expect(messages(f)).toEqual([
      `sttDetails.sttLanguage: ${M.sttLanguageRequired}`,
      `sttDetails.sttAPIKey: ${M.googleKeyFileRequired}`,
      `sttDetails.sttRegion: ${M.googleRegionRequired}`,
    ]);
    f.sttDetails = { ...f.sttDetails, sttProvider: SttProvider.Azure, sttLanguage: 'en-US' };
    expect(messages(f)).toEqual([`sttDetails.sttAPIKey: ${M.azureKeyRequired}`, `sttDetails.sttRegion: ${M.azureRegionRequired}`]);
    f.sttDetails = { ...f.sttDetails, sttProvider: SttProvider.Deepgram, deepgramEndpoint: '2.5' };
    expect(messages(f)).toEqual([`sttDetails.sttAPIKey: ${M.deepgramKeyRequired}`, `sttDetails.deepgramEndpoint: ${M.integer}`]);
    f.sttDetails = { ...f.sttDetails, sttAPIKey: 'dg', deepgramEndpoint: -3, sttModel: 'flux-general-en', sttLanguage: 'fr-FR' };
    expect(messages(f)).toEqual([`sttDetails.deepgramEndpoint: ${M.positive}`, `sttDetails.sttModel: ${M.englishOnlyModel}`]);
    f.sttDetails = {
      ...f.sttDetails,
      deepgramEndpoint: 300,
      sttLanguage: 'en-US',
      sttAdditionalLanguages: Array.from({ length: 11 }, (_, i) => `l${i}`),
    };
    expect(messages(f)).toEqual([`sttDetails.sttAdditionalLanguages: ${M.tooManyLanguages}`, `sttDetails.sttModel: ${M.englishOnlyModel}`]);
  });

  it('does not check STT details in Simple mode or for the default provider', () => {
    const f = form((f) => (f.sttDetails = { ...f.sttDetails, sttProvider: SttProvider.Azure }));
    expect(messages(f)).toEqual([]);
  });

  it('checks TTS per provider', () => {
    const f = form((f) => {
      f.setupMode = 'Composite';
      f.ttsDetails.ttsProvider = null;
    });
    expect(messages(f)).toEqual([`ttsDetails.ttsProvider: ${M.ttsProviderRequired}`]);
    f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.Polly, ttsVoice: '' };
    expect(messages(f)).toEqual([
      `ttsDetails.ttsVoice: ${M.ttsVoiceRequired}`,
      `ttsDetails.pollyAccessKey: ${M.accessKeyRequired}`,
      `ttsDetails.pollySecretKey: ${M.secretKeyRequired}`,
      `ttsDetails.ttsRegion: ${M.regionRequired}`,
    ]);
    f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.Azure, ttsVoice: 'v', ttsSpeechSpeed: '' };
    expect(messages(f)).toEqual([
      `ttsDetails.azureSubscriptionKey: ${M.subscriptionKeyRequired}`,
      `ttsDetails.ttsRegion: ${M.regionRequired}`,
      `ttsDetails.ttsSpeechSpeed: ${M.speedRequired}`,
    ]);
    f.ttsDetails = { ...f.ttsDetails, azureSubscriptionKey: 'k', ttsRegion: 'eastus', ttsSpeechSpeed: 1.5 };
    expect(messages(f)).toEqual([`ttsDetails.ttsSpeechSpeed: ${M.speedRange}`]);
    f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.ElevenLabs };
    expect(messages(f)).toEqual([`ttsDetails.elevenLabsAPIKey: ${M.apiKeyRequired}`]);
    f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.Cartesia };
    expect(messages(f)).toEqual([`ttsDetails.cartesiaAPIKey: ${M.apiKeyRequired}`, `ttsDetails.ttsSpeechSpeed: ${M.speedRange}`]);
    f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.Neuphonic, ttsSpeechSpeed: 'fast' };
    expect(messages(f)).toEqual([
      `ttsDetails.neuphonic.api_key: ${M.apiKeyRequired}`,
      `ttsDetails.neuphonic.lang_code: ${M.languageRequired}`,
      `ttsDetails.ttsSpeechSpeed: ${M.speedRange}`,
    ]);
  });

  it('skips speech sections for engines that speak themselves', () => {
    const f = form((f) => {
      f.setupMode = 'None';
      f.nlpEngine = AvatarEngine.Ten;
      f.sttDetails.sttProvider = null;
      f.ttsDetails.ttsProvider = null;
    });
    expect(messages(f)).toEqual([`agoraTen.app_id: ${M.agoraAppIdRequired}`, `agoraTen.app_certificate: ${M.agoraCertificateRequired}`]);
    f.agoraTen = { app_id: '970CA35de60c44645bbae8a215061b33', app_certificate: 'cert' };
    expect(messages(f)).toEqual([]);
  });

  it('reports the same issues through the zod schema with their paths', () => {
    const f = form((f) => (f.nlpEngine = AvatarEngine.RestEndpoint));
    const r = brainFormSchema(catalogue).safeParse(f);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual(['restEndpoint.base_url', M.restUrlRequired]);
    expect(groq).toMatch(/^https:\/\/api\.groq\.com/);
  });
});
