import { describe, expect, it } from 'vitest';
import { AvatarEngine, SpeechVoiceProvider, SttProvider } from '@parla/shared/enums';
import { buildBrainCatalogue } from '@parla/shared/provider-urls';
import { defaultBrainForm, formsToPipeline } from '@parla/shared/schemas/brain-pipeline';
import {
  applyAgentStatus,
  changeBaseUrl,
  changeSttProvider,
  changeTtsProvider,
  chooseEngine,
  interactionTypeSelectable,
  switchMode,
  type SavedBrain,
} from './transitions';

const c = buildBrainCatalogue();
const url = (id: string) => c.llmProviders.find((p) => p.id === id)!.baseUrl;

function savedComposite(): SavedBrain {
  const f = defaultBrainForm(c);
  f.setupMode = 'Composite';
  f.nlpEngine = AvatarEngine.LargeLanguageModel;
  f.llmDetails = {
    ...f.llmDetails,
    url: url('openai'),
    llmProvider: 'openai',
    llmAPIKey: '••••abcd',
    llmModel: 'gpt-4o',
    custom_text: 'm',
  };
  f.sttDetails = changeSttProvider(f.sttDetails, SttProvider.Deepgram);
  f.sttDetails.sttAPIKey = '••••gram';
  return { setupMode: 'Composite', nlpEngine: AvatarEngine.LargeLanguageModel, realtime: false, pipeline: formsToPipeline(f, {}, c) };
}

describe('spec 3 §4 transitions', () => {
  it('starts new avatars in echo-back mode', () => {
    expect(defaultBrainForm(c).nlpEngine).toBe(AvatarEngine.EchoTest);
  });

  it('defaults the LLM engine to the Groq base URL', () => {
    const f = chooseEngine(
      {
        ...defaultBrainForm(c),
        setupMode: 'Composite',
        llmDetails: { ...defaultBrainForm(c).llmDetails, url: url('openai'), llmModel: 'gpt-4o' },
      },
      AvatarEngine.LargeLanguageModel,
      c,
    );
    expect(f.llmDetails).toMatchObject({ url: url('groq'), llmProvider: 'groq', llmModel: '' });
  });

  it('forces STT and TTS to None for TEN and realtime', () => {
    for (const engine of [AvatarEngine.Ten, AvatarEngine.ParlaRealtime]) {
      const f = chooseEngine({ ...defaultBrainForm(c), setupMode: engine === AvatarEngine.Ten ? 'None' : 'SpeechToSpeech' }, engine, c);
      expect(f.sttDetails.sttProvider).toBe(SttProvider.None);
      expect(f.ttsDetails.ttsProvider).toBe(SpeechVoiceProvider.None);
    }
  });

  it('forces Groq and its first model in Simple mode', () => {
    const f = chooseEngine(defaultBrainForm(c), AvatarEngine.LargeLanguageModel, c);
    expect(f.llmDetails).toMatchObject({ url: url('groq'), llmModel: c.singleModeModelsList[0] });
  });

  it('puts back the saved details on a mode switch and clears the model for another mode', () => {
    const saved = savedComposite();
    const draft = defaultBrainForm(c);
    draft.setupMode = 'Composite';
    draft.nlpEngine = AvatarEngine.LargeLanguageModel;
    draft.llmDetails.llmModel = 'changed';
    draft.sttDetails.sttProvider = SttProvider.Azure;
    const same = switchMode(draft, 'Composite', saved, c);
    expect(same.llmDetails).toMatchObject({ url: url('openai'), llmModel: 'gpt-4o', llmAPIKey: '••••abcd' });
    expect(same.sttDetails.sttProvider).toBe(SttProvider.Deepgram);
    const none = switchMode(draft, 'None', saved, c);
    expect(none.nlpEngine).toBe(AvatarEngine.Ten);
    expect(none.sttDetails.sttProvider).toBe(SttProvider.None);
    const s2s = switchMode(draft, 'SpeechToSpeech', saved, c);
    expect(s2s.nlpEngine).toBe(AvatarEngine.ParlaRealtime);
    const back = switchMode(s2s, 'Composite', saved, c);
    expect(back.nlpEngine).toBe(AvatarEngine.LargeLanguageModel);
    expect(back.llmDetails.llmModel).toBe('gpt-4o');
    const simple = switchMode(draft, 'Simple', saved, c);
    expect(simple.nlpEngine).toBe(AvatarEngine.LargeLanguageModel);
    expect(simple.llmDetails).toMatchObject({ url: url('groq'), llmModel: c.singleModeModelsList[0] });
    expect(simple.sttDetails).toMatchObject({ sttProvider: SttProvider.Default, sttLanguage: 'en-US', sttAPIKey: '' });
    expect(simple.ttsDetails).toMatchObject({ ttsProvider: SpeechVoiceProvider.Default, ttsVoice: c.defaultVoices[0]!.id });
  });

  it('clears model, key, interaction type and assistant when the base URL changes', () => {
    const llm = {
      ...defaultBrainForm(c).llmDetails,
      url: url('openai'),
      llmModel: 'gpt-4o',
      llmAPIKey: 'sk',
      interactionType: 'assistant' as const,
      llmAssistantId: 'asst_1',
    };
    expect(changeBaseUrl(llm, url('xai'), c)).toMatchObject({
      url: url('xai'),
      llmProvider: 'xai',
      llmModel: '',
      llmAPIKey: '',
      interactionType: 'prompt',
      llmAssistantId: '',
    });
  });

  it('offers the interaction type only in Composite, without realtime, on OpenAI', () => {
    const f = { ...defaultBrainForm(c), setupMode: 'Composite' as const };
    f.llmDetails.url = url('openai');
    expect(interactionTypeSelectable(f, c)).toBe(true);
    expect(interactionTypeSelectable({ ...f, realtime: true }, c)).toBe(false);
    expect(interactionTypeSelectable({ ...f, setupMode: 'Simple' }, c)).toBe(false);
    expect(interactionTypeSelectable({ ...f, llmDetails: { ...f.llmDetails, url: url('groq') } }, c)).toBe(false);
  });

  it('starts a new STT provider clean with its defaults', () => {
    const d = {
      ...defaultBrainForm(c).sttDetails,
      sttAPIKey: 'k',
      sttAPIKeyFileName: 'f.json',
      sttRegion: 'r',
      sttContextPhrases: 'p',
      sttModel: 'm',
    };
    expect(changeSttProvider(d, SttProvider.Deepgram)).toMatchObject({
      sttAPIKey: '',
      sttAPIKeyFileName: '',
      sttContextPhrases: '',
      sttRegion: '',
      sttModel: 'nova-3-general',
      sttLanguage: 'multi',
      sttAPIKeyType: 'string',
    });
    expect(changeSttProvider(d, SttProvider.Google)).toMatchObject({
      sttModel: 'long',
      sttRegion: 'global',
      sttLanguage: 'en-US',
      sttAPIKeyType: 'file',
    });
    expect(changeSttProvider({ ...d, sttLanguage: 'de-DE' }, SttProvider.Azure)).toMatchObject({
      sttLanguage: 'de-DE',
      sttRegion: '',
      sttModel: '',
    });
  });

  it('starts a new TTS provider clean, with speed 1 for Neuphonic and 0 for the others', () => {
    const d = { ...defaultBrainForm(c).ttsDetails, azureSubscriptionKey: 'k', ttsRegion: 'eastus', ttsVoice: 'v', ttsSpeechSpeed: 0.5 };
    expect(changeTtsProvider(d, SpeechVoiceProvider.Neuphonic)).toMatchObject({
      azureSubscriptionKey: '',
      ttsRegion: '',
      ttsVoice: '',
      ttsSpeechSpeed: 1,
    });
    expect(changeTtsProvider(d, SpeechVoiceProvider.Azure).ttsSpeechSpeed).toBe(0);
  });

  it('clears the agent key when the agent is public', () => {
    const d = { agent_id: 'agent_public_0123', api_key: 'k', status: 'idle' as const, connection_type: 'webrtc' as const };
    expect(applyAgentStatus(d, 'public').api_key).toBe('');
    expect(applyAgentStatus(d, 'private').api_key).toBe('k');
  });
});
