import { describe, expect, it } from 'vitest';
import { AvatarEngine, SpeechVoiceProvider, SttProvider } from '../enums';
import { buildBrainCatalogue } from '../provider-urls';
import { agentPipelineConfig } from './brain';
import { defaultBrainForm, formsToAvatarFields, formsToPipeline, pipelineToForms } from './brain-pipeline';

const catalogue = buildBrainCatalogue();
const openai = catalogue.llmProviders.find((p) => p.id === 'openai')!;

describe('brain forms ↔ saved pipeline', () => {
  it('saves an LLM avatar with the spec field names and reads it back', () => {
    const f = defaultBrainForm(catalogue);
    f.setupMode = 'Composite';
    f.nlpEngine = AvatarEngine.LargeLanguageModel;
    f.llmDetails = {
      ...f.llmDetails,
      url: openai.baseUrl,
      llmAPIKey: 'sk-test',
      llmModel: 'gpt-4o-mini',
      custom_text: 'memory',
      llmMaxTokens: '256',
    };
    f.sttDetails = {
      ...f.sttDetails,
      sttProvider: SttProvider.Deepgram,
      sttAPIKey: 'dg-key',
      sttModel: 'nova-3-general',
      sttLanguage: 'multi',
      sttAdditionalLanguages: ['en-US', 'multi', 'fr-FR'],
      sttContextPhrases: 'Parla\nAvatar',
      deepgramEndpoint: '300',
    };
    f.ttsDetails = {
      ...f.ttsDetails,
      ttsProvider: SpeechVoiceProvider.Azure,
      azureSubscriptionKey: 'az-key',
      ttsRegion: 'eastus',
      ttsVoice: 'en-US-JennyNeural',
      ttsSpeechSpeed: 0.2,
    };
    const saved = formsToPipeline(
      f,
      { interrupt_handling: { allow_interruptions: true, min_interruption_duration: 0.5, min_interruption_words: 0 } },
      catalogue,
    );
    expect(agentPipelineConfig.parse(saved)).toEqual(saved);
    expect(saved.llm).toEqual({
      provider: 'openai',
      base_url: openai.baseUrl,
      api_key: 'sk-test',
      model: 'gpt-4o-mini',
      instructions: f.llmDetails.llmPrompt,
      assistant_id: null,
      max_tokens: 256,
      summary_enabled: true,
      custom_text: 'memory',
      agent_language: 'en',
    });
    expect(saved.stt).toEqual({
      provider: 'deepgram',
      default_stt: 0,
      region: null,
      api_key: 'dg-key',
      context_phrases: 'Parla\nAvatar',
      languages: 'multi,en-US,fr-FR',
      model: 'nova-3-general',
      api_key_file_name: null,
      endpointing: 300,
    });
    expect(saved.tts).toEqual({
      provider: 'azure',
      default_tts: 1,
      voice_id: 'en-US-JennyNeural',
      speed: 0.2,
      region: 'eastus',
      api_key: 'az-key',
    });
    expect(saved.interrupt_handling).toBeDefined();

    const back = pipelineToForms(saved, { setupMode: 'Composite', nlpEngine: AvatarEngine.LargeLanguageModel }, catalogue);
    expect(back.llmDetails).toMatchObject({
      url: openai.baseUrl,
      llmProvider: 'openai',
      llmAPIKey: 'sk-test',
      llmModel: 'gpt-4o-mini',
      interactionType: 'prompt',
      llmMaxTokens: 256,
    });
    expect(back.sttDetails).toMatchObject({
      sttProvider: SttProvider.Deepgram,
      sttLanguage: 'multi',
      sttAdditionalLanguages: ['en-US', 'fr-FR'],
      deepgramEndpoint: 300,
      sttAPIKeyType: 'string',
    });
    expect(back.ttsDetails).toMatchObject({
      ttsProvider: SpeechVoiceProvider.Azure,
      azureSubscriptionKey: 'az-key',
      ttsRegion: 'eastus',
      ttsSpeechSpeed: 0.2,
    });
  });

  it('forces Groq without base URL or key in Simple mode', () => {
    const f = defaultBrainForm(catalogue);
    f.nlpEngine = AvatarEngine.LargeLanguageModel;
    f.llmDetails = { ...f.llmDetails, url: openai.baseUrl, llmAPIKey: 'sk-test', llmModel: 'llama-3.1-8b-instant' };
    const saved = formsToPipeline(f, {}, catalogue);
    expect(saved.llm).toMatchObject({ provider: 'groq', base_url: null, api_key: null, model: 'llama-3.1-8b-instant' });
    expect(saved.stt!.provider).toBe('default');
    expect(saved.tts!.provider).toBe('default');
  });

  it('reads an assistant id as the assistant interaction type', () => {
    const back = pipelineToForms(
      { llm: { provider: 'openai', base_url: openai.baseUrl, assistant_id: 'asst_1', model: 'gpt-4o' } },
      { setupMode: 'Composite', nlpEngine: AvatarEngine.LargeLanguageModel },
      catalogue,
    );
    expect(back.llmDetails.interactionType).toBe('assistant');
    expect(back.llmDetails.llmAssistantId).toBe('asst_1');
  });

  it('splits a Polly voice into voice id and engine', () => {
    const f = defaultBrainForm(catalogue);
    f.setupMode = 'Composite';
    f.ttsDetails = {
      ...f.ttsDetails,
      ttsProvider: SpeechVoiceProvider.Polly,
      pollyAccessKey: 'AKID',
      pollySecretKey: 'secret',
      ttsRegion: 'us-east-1',
      ttsVoice: 'Joanna:neural',
    };
    const saved = formsToPipeline(f, {}, catalogue);
    expect(saved.tts).toMatchObject({
      provider: 'polly',
      voice_id: 'Joanna',
      model: 'neural',
      api_key: 'AKID',
      secret_key: 'secret',
      region: 'us-east-1',
    });
    expect(pipelineToForms(saved, { setupMode: 'Composite', nlpEngine: 0 }).ttsDetails.ttsVoice).toBe('Joanna:neural');
  });

  it('keeps Neuphonic key and language in its sub-form', () => {
    const f = defaultBrainForm(catalogue);
    f.setupMode = 'Composite';
    f.ttsDetails = {
      ...f.ttsDetails,
      ttsProvider: SpeechVoiceProvider.Neuphonic,
      ttsSpeechSpeed: 1,
      ttsVoice: 'v1',
      neuphonic: { api_key: 'np-key-123456', lang_code: 'en' },
    };
    const saved = formsToPipeline(f, {}, catalogue);
    expect(saved.tts).toMatchObject({ provider: 'neuphonic', api_key: 'np-key-123456', lang_code: 'en', speed: 1 });
    expect(pipelineToForms(saved, { setupMode: 'Composite', nlpEngine: 0 }).ttsDetails.neuphonic).toEqual({
      api_key: 'np-key-123456',
      lang_code: 'en',
    });
  });

  it('saves speech-to-speech at the top level and forces STT and TTS to none', () => {
    const f = defaultBrainForm(catalogue);
    f.setupMode = 'SpeechToSpeech';
    f.nlpEngine = AvatarEngine.ParlaRealtime;
    const rt = catalogue.realtimeProviders[1]!;
    f.realtimeDetails = {
      url: rt.url,
      api_key: 'g-key',
      model: rt.models[0]!,
      instructions: 'Be brief',
      greeting: 'Hi!',
      voice_id: 'Kore',
    };
    const saved = formsToPipeline(f, {}, catalogue);
    expect(saved).toMatchObject({
      url: rt.url,
      api_key: 'g-key',
      model: rt.models[0],
      instructions: 'Be brief',
      greeting: 'Hi!',
      voice_id: 'Kore',
    });
    expect(saved.stt!.provider).toBe('none');
    expect(saved.tts!.provider).toBe('none');
    expect(pipelineToForms(saved, { setupMode: 'SpeechToSpeech', nlpEngine: AvatarEngine.ParlaRealtime }).realtimeDetails.voice_id).toBe(
      'Kore',
    );
  });

  it('saves the third-party agent and reads connection type websocket when missing', () => {
    const f = defaultBrainForm(catalogue);
    expect(f.elevenLabsConversationAI.connection_type).toBe('webrtc');
    f.setupMode = 'None';
    f.nlpEngine = AvatarEngine.ElevenLabsConversationAI;
    f.elevenLabsConversationAI = { agent_id: 'agent_public_01', api_key: 'should-be-dropped', status: 'public', connection_type: 'webrtc' };
    expect(formsToPipeline(f, {}, catalogue).third_party).toEqual({
      agent_id: 'agent_public_01',
      api_key: null,
      is_public: true,
      connection_type: 'webrtc',
    });
    const back = pipelineToForms(
      { third_party: { agent_id: 'agent_private_1', api_key: 'k', is_public: false } },
      { setupMode: 'None', nlpEngine: AvatarEngine.ElevenLabsConversationAI },
    );
    expect(back.elevenLabsConversationAI).toEqual({
      agent_id: 'agent_private_1',
      api_key: 'k',
      status: 'private',
      connection_type: 'websocket',
    });
  });

  it('writes REST and Dialogflow into the llm block, their keys into the avatar fields', () => {
    const f = defaultBrainForm(catalogue);
    f.nlpEngine = AvatarEngine.RestEndpoint;
    f.restEndpoint = {
      base_url: 'https://bot.example/chat',
      api_key: 'rest-key',
      custom_text: 'm',
      summary_enabled: false,
      agent_language: 'de',
    };
    expect(formsToPipeline(f, {}, catalogue).llm).toEqual({
      provider: 'rest',
      base_url: 'https://bot.example/chat',
      custom_text: 'm',
      summary_enabled: false,
      agent_language: 'de',
    });
    expect(formsToAvatarFields(f)).toEqual({ restEndPointURL: 'https://bot.example/chat', restApiKey: 'rest-key', agentLanguage: 'de' });
    f.setupMode = 'Composite';
    f.nlpEngine = AvatarEngine.DialogflowCX;
    f.dialogFlowCX = {
      project_id: 'p',
      api_key: '{"type":"service_account"}',
      api_key_file_name: 'key.json',
      agent_language: 'en',
      agent_id: 'a',
      region_id: 'global',
    };
    const saved = formsToPipeline(f, {}, catalogue);
    expect(saved.llm).toEqual({
      provider: 'dialogflow_cx',
      project_id: 'p',
      api_key_file_name: 'key.json',
      agent_language: 'en',
      agent_id: 'a',
      region_id: 'global',
    });
    const fields = formsToAvatarFields(f);
    expect(fields).toEqual({
      projectId: 'p',
      jsonKey: '{"type":"service_account"}',
      agentLanguage: 'en',
      agentId: 'a',
      regionId: 'global',
    });
    expect(
      pipelineToForms(saved, { setupMode: 'Composite', nlpEngine: AvatarEngine.DialogflowCX, ...fields, jsonKey: '••••nt"}' }).dialogFlowCX,
    ).toEqual({ ...f.dialogFlowCX, api_key: '••••nt"}' });
    expect(formsToAvatarFields({ ...f, nlpEngine: AvatarEngine.EchoTest })).toEqual({});
  });

  it("keeps Agora TEN's App ID and App Certificate in the third_party block", () => {
    const f = defaultBrainForm(catalogue);
    f.setupMode = 'None';
    f.nlpEngine = AvatarEngine.Ten;
    f.agoraTen = { app_id: 'app-1', app_certificate: 'cert-1' };
    const saved = formsToPipeline(f, {}, catalogue);
    expect(saved.third_party).toEqual({ agent_id: 'app-1', api_key: 'cert-1' });
    expect(saved.llm).toEqual({ provider: 'none' });
    expect(pipelineToForms(saved, { setupMode: 'None', nlpEngine: AvatarEngine.Ten }).agoraTen).toEqual(f.agoraTen);
  });

  it('falls back to the defaults for a missing or malformed pipeline', () => {
    const back = pipelineToForms('nonsense', {});
    expect(back.nlpEngine).toBe(AvatarEngine.EchoTest);
    expect(back.sttDetails.sttLanguage).toBe('en-US');
  });
});
