// The brain and ADVANCED rules of spec 3 §5 on the avatar save, the pipeline's secrets, and the
// stored keys the look-ups use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarEngine, SpeechVoiceProvider, SttProvider, type SetupMode } from '@parla/shared/enums';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { ADVANCED_MESSAGES as A } from '@parla/shared/schemas/advanced';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { BRAIN_MESSAGES as M, type AgentPipelineConfig } from '@parla/shared/schemas/brain';
import type { BrainForm } from '@parla/shared/schemas/brain-forms';
import { defaultBrainForm, formsToAvatarFields, formsToPipeline } from '@parla/shared/schemas/brain-pipeline';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import { SubscriptionType } from '@parla/shared/plans';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { STAND_IN_AGENTS, STAND_IN_KEYS } from '../../../test/stand-ins/keys';
import { startProviderStandIns, type ProviderStandIns } from '../../../test/stand-ins/providers';
import { save } from '../../../test/avatar-requests';

let server: TestServer;
let standIns: ProviderStandIns;
let owner: TestAccount;
let c: BrainCatalogue;
let appearance: CatalogueAvatar;
const answers: string[] = [];

beforeAll(async () => {
  standIns = await startProviderStandIns();
  server = await createTestServer({ OUTBOUND_ALLOW: standIns.allow, PROVIDER_URL_OVERRIDES: standIns.overrides, LOG_LEVEL: 'debug' });
  owner = await createCustomer(server, 'brainsave');
  // Many avatars below: no plan limit in the way.
  await server.ctx.db.updateTable('users').set({ subscription_type: SubscriptionType.ENTERPRISE }).where('id', '=', owner.id).execute();
  c = (await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: owner.token })).json();
  appearance = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars[0];
});
afterAll(async () => {
  await server.close();
  await standIns.close();
});

async function send(account: TestAccount, json: object) {
  const res = await save(server, account.token, json);
  answers.push(res.body);
  return res;
}

async function create(account = owner): Promise<Avatar> {
  const res = await send(account, { name: 'Brainy', dhType: appearance.type, appearanceId: appearance.id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent;
}

const url = (id: string) => c.llmProviders.find((p) => p.id === id)!.baseUrl;

/** A valid form of the mode and engine, changed by `patch`. */
function form(mode: SetupMode, engine: number, patch: (f: BrainForm) => void = () => {}): BrainForm {
  const f = defaultBrainForm(c);
  f.setupMode = mode;
  f.nlpEngine = engine;
  if (engine === AvatarEngine.LargeLanguageModel) {
    f.llmDetails = {
      ...f.llmDetails,
      url: url('openai'),
      llmProvider: 'openai',
      llmAPIKey: STAND_IN_KEYS.openai,
      llmModel: 'gpt-4o-mini',
      custom_text: 'We sell bikes.',
    };
  }
  patch(f);
  return f;
}

function withBrain(a: Avatar, f: BrainForm, pipeline: AgentPipelineConfig = formsToPipeline(f, {}, c), extra: object = {}) {
  return {
    ...a,
    ...formsToAvatarFields(f),
    setupMode: f.setupMode,
    nlpEngine: f.nlpEngine,
    customData: { ...a.customData, agent_pipeline_config: { ...a.customData.agent_pipeline_config, ...pipeline } },
    ...extra,
  };
}

async function expectRefused(a: Avatar, body: object, errors: string[], failReason: string) {
  const res = await send(owner, body);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ failReason });
  expect(res.json().errors).toEqual(errors);
  // Nothing was stored.
  const stored = (await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: owner.token })).json().agent as Avatar;
  expect(stored.updated).toBe(a.updated);
}

describe('saving the brain', () => {
  it('saves a Composite LLM avatar with Deepgram and Azure, answers the keys masked and keeps them when the masks come back', async () => {
    const a = await create();
    const f = form('Composite', AvatarEngine.LargeLanguageModel, (f) => {
      f.sttDetails = {
        ...f.sttDetails,
        sttProvider: SttProvider.Deepgram,
        sttAPIKey: STAND_IN_KEYS.deepgram,
        sttModel: 'nova-3-general',
        sttLanguage: 'multi',
        sttAPIKeyType: 'string',
      };
      f.ttsDetails = {
        ...f.ttsDetails,
        ttsProvider: SpeechVoiceProvider.Azure,
        azureSubscriptionKey: STAND_IN_KEYS.azure,
        ttsRegion: 'eastus',
        ttsVoice: 'en-US-JennyNeural',
        ttsSpeechSpeed: 0,
      };
    });
    const res = await send(owner, withBrain(a, f));
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json().agent as Avatar;
    const p = b.customData.agent_pipeline_config!;
    expect(b).toMatchObject({ setupMode: 'Composite', nlpEngine: AvatarEngine.LargeLanguageModel });
    expect(p.llm).toMatchObject({
      provider: 'openai',
      base_url: url('openai'),
      model: 'gpt-4o-mini',
      api_key: `••••${STAND_IN_KEYS.openai.slice(-4)}`,
    });
    expect(p.stt).toMatchObject({
      provider: 'deepgram',
      api_key: `••••${STAND_IN_KEYS.deepgram.slice(-4)}`,
      languages: 'multi',
      model: 'nova-3-general',
    });
    expect(p.tts).toMatchObject({
      provider: 'azure',
      api_key: `••••${STAND_IN_KEYS.azure.slice(-4)}`,
      region: 'eastus',
      voice_id: 'en-US-JennyNeural',
    });

    // Saved again as answered (masked): the stored keys stay.
    const again = await send(owner, { ...b, name: 'Brainy 2' });
    expect(again.statusCode, again.body).toBe(200);
    const row = await server.ctx.db.selectFrom('avatars').select('custom_data').where('id', '=', a.id).executeTakeFirstOrThrow();
    const stored = (row.custom_data as { agent_pipeline_config: AgentPipelineConfig }).agent_pipeline_config;
    expect(server.ctx.secrets.decrypt(stored.llm!.api_key!)).toBe(STAND_IN_KEYS.openai);
    expect(server.ctx.secrets.decrypt(stored.stt!.api_key!)).toBe(STAND_IN_KEYS.deepgram);
    expect(JSON.stringify(row.custom_data)).not.toContain(STAND_IN_KEYS.azure);

    // The look-ups use the stored keys for the masked values of this avatar.
    const models = await server.inject({
      method: 'POST',
      url: '/api/llm/models',
      token: owner.token,
      payload: { baseUrl: url('openai'), apiKey: p.llm!.api_key!, avatarId: a.id },
    });
    expect(models.json().models).toContain('gpt-4o-mini');
    expect(standIns.requests.at(-1)!.headers.authorization).toBe(`Bearer ${STAND_IN_KEYS.openai}`);
    const dg = await server.inject({
      method: 'POST',
      url: '/api/proxy',
      token: owner.token,
      payload: {
        url: `${c.endpoints.deepgram}/auth/token`,
        headers: { Authorization: `Token ${p.stt!.api_key}` },
        avatarId: a.id,
        secretRef: 'stt',
      },
    });
    expect(dg.json().httpStatus).toBe(200);
    const voices = await server.inject({
      method: 'POST',
      url: '/api/tts/list_voices',
      token: owner.token,
      payload: { ttsProvider: SpeechVoiceProvider.Azure, azureSubscriptionKey: p.tts!.api_key, ttsRegion: 'eastus', avatarId: a.id },
    });
    expect(voices.statusCode, voices.body).toBe(200);
    // ...but not for another provider than the one the key was saved for.
    const other = await server.inject({
      method: 'POST',
      url: '/api/llm/models',
      token: owner.token,
      payload: { baseUrl: url('groq'), apiKey: p.llm!.api_key!, avatarId: a.id },
    });
    expect(other.json().errors).toEqual([M.storedKeyMissing]);
    const el = await server.inject({
      method: 'POST',
      url: '/api/tts/list_voices',
      token: owner.token,
      payload: { ttsProvider: SpeechVoiceProvider.ElevenLabs, elevenLabsAPIKey: p.tts!.api_key, avatarId: a.id },
    });
    expect(el.json().errors).toEqual([M.storedKeyMissing]);
    for (const r of [models, dg, voices, other, el]) answers.push(r.body);
  });

  it("does not give another account's stored keys to look-ups", async () => {
    const a = await create();
    const f = form('Composite', AvatarEngine.LargeLanguageModel);
    const b = (await send(owner, withBrain(a, f))).json().agent as Avatar;
    const stranger = await createCustomer(server, 'stranger');
    const res = await server.inject({
      method: 'POST',
      url: '/api/llm/models',
      token: stranger.token,
      payload: { baseUrl: url('openai'), apiKey: b.customData.agent_pipeline_config!.llm!.api_key!, avatarId: a.id },
    });
    expect(res.statusCode).toBe(404);
  });

  it('asks for the key again when a masked one comes back for another provider', async () => {
    const a = await create();
    const b = (await send(owner, withBrain(a, form('Composite', AvatarEngine.LargeLanguageModel)))).json().agent as Avatar;
    const moved = {
      ...b.customData.agent_pipeline_config!,
      llm: { ...b.customData.agent_pipeline_config!.llm!, provider: 'groq', base_url: url('groq') },
    };
    await expectRefused(
      b,
      { ...b, customData: { ...b.customData, agent_pipeline_config: moved } },
      [M.storedKeyMissing],
      'STORED_KEY_MISSING',
    );
  });

  it('keeps the REST and Dialogflow keys in the avatar fields, masked in answers and kept when the mask comes back', async () => {
    const a = await create();
    const rest = form(
      'Simple',
      AvatarEngine.RestEndpoint,
      (f) => (f.restEndpoint = { ...f.restEndpoint, base_url: 'https://bot.example/events', api_key: 'rest-key-0123456789-abcd' }),
    );
    const res = await send(owner, withBrain(a, rest));
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json().agent as Avatar;
    expect(b).toMatchObject({
      restEndPointURL: 'https://bot.example/events',
      restApiKey: '••••abcd',
      nlpEngine: AvatarEngine.RestEndpoint,
    });
    expect(b.customData.agent_pipeline_config!.llm).toMatchObject({ provider: 'rest', base_url: 'https://bot.example/events' });
    expect(b.customData.agent_pipeline_config!.llm).not.toHaveProperty('api_key');
    const again = await send(owner, { ...b, name: 'Brainy again' });
    expect(again.statusCode, again.body).toBe(200);
    const df = form(
      'Composite',
      AvatarEngine.DialogflowES,
      (f) =>
        (f.dialogFlowES = {
          ...f.dialogFlowES,
          project_id: 'my-project',
          api_key: '{"type":"service_account","private_key":"x"}',
          api_key_file_name: 'sa.json',
        }),
    );
    const c2 = (await send(owner, withBrain(again.json().agent, df))).json().agent as Avatar;
    expect(c2).toMatchObject({ projectId: 'my-project', nlpEngine: AvatarEngine.DialogflowES });
    expect(c2.jsonKey.startsWith('••••')).toBe(true);
    const row = await server.ctx.db
      .selectFrom('avatars')
      .select(['json_key_enc', 'rest_api_key_enc'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(server.ctx.secrets.decrypt(row.json_key_enc!)).toContain('service_account');
    expect(server.ctx.secrets.decrypt(row.rest_api_key_enc!)).toBe('rest-key-0123456789-abcd');
  });

  it('refuses an engine the mode does not offer', async () => {
    const a = await create();
    await expectRefused(
      a,
      { ...a, setupMode: 'SpeechToSpeech', nlpEngine: AvatarEngine.LargeLanguageModel },
      [M.engineRequired],
      'INVALID_BRAIN',
    );
  });

  const cases: [string, SetupMode, number, (f: BrainForm) => void, string[]][] = [
    [
      'LLM fields',
      'Composite',
      AvatarEngine.LargeLanguageModel,
      (f) => (f.llmDetails = { ...f.llmDetails, url: '', llmAPIKey: '', llmModel: '', custom_text: '' }),
      [M.baseUrlRequired, M.apiKeyRequired, M.modelRequired, M.memoryRequired],
    ],
    [
      'an unknown base URL',
      'Composite',
      AvatarEngine.LargeLanguageModel,
      (f) => (f.llmDetails.url = 'http://169.254.169.254/v1'),
      [M.baseUrlUnknown],
    ],
    [
      'REST',
      'Simple',
      AvatarEngine.RestEndpoint,
      (f) => (f.restEndpoint.custom_text = ''),
      [M.restUrlRequired, M.restKeyRequired, M.memoryRequired],
    ],
    [
      'a REST URL',
      'Simple',
      AvatarEngine.RestEndpoint,
      (f) => (f.restEndpoint = { ...f.restEndpoint, base_url: 'javascript:alert(1)', api_key: 'k', custom_text: 'm' }),
      [M.notValidUrl],
    ],
    ['Dialogflow ES', 'Composite', AvatarEngine.DialogflowES, () => {}, [M.dfProjectRequired, M.dfKeyRequired]],
    [
      'Dialogflow CX',
      'Composite',
      AvatarEngine.DialogflowCX,
      () => {},
      [M.dfProjectRequired, M.dfAgentRequired, M.dfRegionRequired, M.dfKeyRequired],
    ],
    [
      'realtime',
      'SpeechToSpeech',
      AvatarEngine.ParlaRealtime,
      () => {},
      [M.baseUrlRequired, M.apiKeyRequired, M.modelRequired, M.voiceRequired],
    ],
    [
      'a realtime voice of the other provider',
      'SpeechToSpeech',
      AvatarEngine.ParlaRealtime,
      (f) =>
        (f.realtimeDetails = {
          ...f.realtimeDetails,
          url: c.realtimeProviders[0]!.url,
          api_key: 'k',
          model: c.realtimeProviders[0]!.models[0]!,
          voice_id: 'Puck',
        }),
      [M.voiceRequired],
    ],
    ['the agent id', 'None', AvatarEngine.ElevenLabsConversationAI, () => {}, [M.agentIdRequired]],
    [
      'a short agent id',
      'None',
      AvatarEngine.ElevenLabsConversationAI,
      (f) => (f.elevenLabsConversationAI = { ...f.elevenLabsConversationAI, agent_id: 'agent_1', status: 'private' }),
      [M.agentIdTooShort],
    ],
    [
      'the key of a private agent',
      'None',
      AvatarEngine.ElevenLabsConversationAI,
      (f) =>
        (f.elevenLabsConversationAI = {
          ...f.elevenLabsConversationAI,
          agent_id: STAND_IN_AGENTS.private,
          status: 'private',
          api_key: 'short',
        }),
      [M.agentKeyRequired],
    ],
    [
      'Google STT',
      'Composite',
      AvatarEngine.EchoTest,
      (f) => (f.sttDetails = { ...f.sttDetails, sttProvider: SttProvider.Google, sttLanguage: '' }),
      [M.sttLanguageRequired, M.googleKeyFileRequired, M.googleRegionRequired],
    ],
    [
      'Azure STT',
      'Composite',
      AvatarEngine.EchoTest,
      (f) => (f.sttDetails = { ...f.sttDetails, sttProvider: SttProvider.Azure }),
      [M.azureKeyRequired, M.azureRegionRequired],
    ],
    [
      'Deepgram STT',
      'Composite',
      AvatarEngine.EchoTest,
      (f) => (f.sttDetails = { ...f.sttDetails, sttProvider: SttProvider.Deepgram, deepgramEndpoint: -5 }),
      [M.deepgramKeyRequired, M.positive],
    ],
    [
      'too many languages',
      'Composite',
      AvatarEngine.EchoTest,
      (f) =>
        (f.sttDetails.sttAdditionalLanguages = [
          'de-DE',
          'fr-FR',
          'es-ES',
          'it-IT',
          'nl-NL',
          'pt-PT',
          'pl-PL',
          'sv-SE',
          'da-DK',
          'fi-FI',
          'cs-CZ',
        ]),
      [M.tooManyLanguages],
    ],
    [
      'Polly',
      'Composite',
      AvatarEngine.EchoTest,
      (f) => (f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.Polly, ttsVoice: '' }),
      [M.ttsVoiceRequired, M.accessKeyRequired, M.secretKeyRequired, M.regionRequired],
    ],
    [
      'Azure TTS',
      'Composite',
      AvatarEngine.EchoTest,
      (f) => (f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.Azure, ttsVoice: 'v', ttsSpeechSpeed: 3 }),
      [M.subscriptionKeyRequired, M.regionRequired, M.speedRange],
    ],
    [
      'ElevenLabs TTS',
      'Composite',
      AvatarEngine.EchoTest,
      (f) => (f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.ElevenLabs, ttsVoice: 'v' }),
      [M.apiKeyRequired],
    ],
    [
      'Cartesia TTS',
      'Composite',
      AvatarEngine.EchoTest,
      (f) => (f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.Cartesia, ttsVoice: 'v' }),
      [M.apiKeyRequired],
    ],
    [
      'Neuphonic TTS',
      'Composite',
      AvatarEngine.EchoTest,
      (f) => (f.ttsDetails = { ...f.ttsDetails, ttsProvider: SpeechVoiceProvider.Neuphonic, ttsVoice: 'v', ttsSpeechSpeed: -2 }),
      [M.apiKeyRequired, M.languageRequired, M.speedRange],
    ],
  ];

  for (const [what, mode, engine, patch, errors] of cases) {
    it(`checks ${what} with the spec's messages`, async () => {
      const a = await create();
      const f = form(mode, engine, patch);
      await expectRefused(a, withBrain(a, f), errors, 'INVALID_BRAIN');
    });
  }

  it("says 'Select a STT Provider' and 'Select a TTS Provider' for blocks without one", async () => {
    const a = await create();
    const f = form('Composite', AvatarEngine.EchoTest);
    const p = formsToPipeline(f, {}, c);
    await expectRefused(
      a,
      withBrain(a, f, { ...p, stt: { languages: 'en-US' }, tts: {} }),
      [M.sttProviderRequired, M.ttsProviderRequired],
      'INVALID_BRAIN',
    );
  });

  it('uses the older messages for an avatar on a legacy ChatGPT engine', async () => {
    const a = await create();
    await server.ctx.db
      .updateTable('avatars')
      .set({ nlp_engine: AvatarEngine.CustomChatGPTPrompt, setup_mode: 'Composite' })
      .where('id', '=', a.id)
      .execute();
    const b = (await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: owner.token })).json().agent as Avatar;
    await expectRefused(
      b,
      { ...b, customData: { ...b.customData, agent_pipeline_config: { ...b.customData.agent_pipeline_config, llm: { provider: '' } } } },
      [M.legacyProviderRequired, M.legacyKeyRequired, M.legacyModelRequired, M.legacyPromptRequired],
      'INVALID_BRAIN',
    );
    await server.ctx.db.updateTable('avatars').set({ nlp_engine: AvatarEngine.CustomChatGPTAssistant }).where('id', '=', a.id).execute();
    const llm = { provider: 'openai', api_key: 'sk-legacy-0123456789', model: 'gpt-4o' };
    await expectRefused(
      b,
      {
        ...b,
        nlpEngine: AvatarEngine.CustomChatGPTAssistant,
        customData: { ...b.customData, agent_pipeline_config: { ...b.customData.agent_pipeline_config, llm } },
      },
      [M.assistantRequired],
      'INVALID_BRAIN',
    );
  });
});

describe('saving the advanced settings', () => {
  const cases: [string, object, string[]][] = [
    [
      'daily limits of 0',
      { dailyLimitPerSession: 0, dailyLimitPerIP: 0, dailyLimits: { Demo: 0 } },
      [
        'Daily Limit Per Session must be greater than 0 or -1 for unlimited',
        'Daily Limit Per IP must be greater than 0 or -1 for unlimited',
        'Demo duration limit must be greater than 0 or -1 for unlimited',
      ],
    ],
    [
      'emptied limits',
      { dailyLimitPerSession: '', dailyLimitPerIP: null, dailyLimits: { Demo: '' } },
      ['Daily Limit Per Session is required.', 'Daily Limit is required.', 'Demo duration limit is required.'],
    ],
    [
      'limits that are not whole seconds',
      { dailyLimitPerSession: 1.5, dailyLimitPerIP: '2.5', dailyLimits: { Demo: -1 } },
      ['Daily Limit Per Session must be a valid second.', 'Daily Limit must be a valid second.'],
    ],
    [
      'limits below -1',
      { dailyLimitPerSession: -2, dailyLimitPerIP: 'abc' },
      [
        'Daily Limit Per Session must be greater than 0 or -1 for unlimited',
        'Daily Limit Per IP must be greater than 0 or -1 for unlimited',
      ],
    ],
    ['the wake-up message', { wakeUpMessage: '   ' }, [A.wakeUpRequired]],
    ['the switches', { customData: { transcriptionStreaming: 'yes' } }, [A.required]],
    [
      'the OAuth info',
      { oauthEnabled: 1, partnerOauthAppId: null, billingAuthURL: 'not a url' },
      [A.oauthIdRequired, A.notValidUrl, A.billingHeaderRequired],
    ],
    ['the OAuth config id', { oauthEnabled: 1, partnerOauthAppId: 'abc' }, [A.oauthIdNumber]],
    ['OAuth enabled', { oauthEnabled: 2 }, [A.oauthEnabledRequired]],
    [
      'interruptions and VAD',
      {
        customData: {
          agent_pipeline_config: {
            interrupt_handling: { allow_interruptions: true, min_interruption_duration: 0, min_interruption_words: 'x' },
            vad_options: { min_endpointing_delay: -1, activation_threshold: 2 },
          },
        },
      },
      [A.mustBePositive, A.mustBeNumber, A.zeroToOne],
    ],
  ];
  for (const [what, patch, errors] of cases) {
    it(`checks ${what} with the spec's messages`, async () => {
      const a = await create();
      const p = patch as { customData?: Record<string, unknown> };
      const body = { ...a, ...patch, customData: { ...a.customData, ...(p.customData ?? {}) } };
      const res = await send(owner, body);
      expect(res.statusCode, res.body).toBe(400);
      const expected = errors[0] === A.required || errors[0] === A.oauthEnabledRequired ? errors : [A.invalidForm, ...errors];
      expect(res.json().errors).toEqual(expected);
    });
  }

  it('checks the idle timeout of the admin-proxy desk and keeps it for everyone else', async () => {
    const a = await create();
    const ok = await send(owner, { ...a, idleTimeout: 9999 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().agent.idleTimeout).toBe(300);
    await server.ctx.db.updateTable('sessions').set({ admin_proxy: true }).where('user_id', '=', owner.id).execute();
    try {
      const b = ok.json().agent as Avatar;
      const over = await send(owner, { ...b, idleTimeout: 601 });
      expect(over.json().errors).toEqual([A.invalidForm, A.idleMax]);
      const frac = await send(owner, { ...b, idleTimeout: 30.5 });
      expect(frac.json().errors).toEqual([A.invalidForm, A.idleInteger]);
      const empty = await send(owner, { ...b, idleTimeout: '' });
      expect(empty.json().errors).toEqual([A.invalidForm, A.idleRequired]);
      const fine = await send(owner, { ...b, idleTimeout: 600 });
      expect(fine.json().agent.idleTimeout).toBe(600);
    } finally {
      await server.ctx.db.updateTable('sessions').set({ admin_proxy: false }).where('user_id', '=', owner.id).execute();
    }
  });

  it('saves limits and reads the older interruption names, storing the new ones and the VAD options of the mode', async () => {
    const a = await create();
    const res = await send(owner, {
      ...a,
      dailyLimitPerSession: '600',
      dailyLimitPerIP: -1,
      dailyLimits: { Demo: 120 },
      customData: {
        ...a.customData,
        agent_pipeline_config: {
          ...a.customData.agent_pipeline_config,
          interrupt_handling: { allow_interruptions: false, interrupt_speech_duration: 0.8, interrupt_min_words: 2 },
          vad_options: { min_silence_duration: 0.7, threshold: 0.9 },
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json().agent as Avatar;
    expect(b).toMatchObject({ dailyLimitPerSession: 600, dailyLimitPerIP: -1, dailyLimits: { Demo: 120 } });
    expect(b.customData.agent_pipeline_config!.interrupt_handling).toEqual({
      allow_interruptions: false,
      min_interruption_duration: 0.8,
      min_interruption_words: 2,
    });
    expect(b.customData.agent_pipeline_config!.vad_options).toMatchObject({
      min_silence_duration: 0.7,
      min_endpointing_delay: 0.5,
      activation_threshold: 0.5,
    });
    expect(b.customData.agent_pipeline_config!.vad_options).not.toHaveProperty('threshold');
  });
});

describe('a canary key in every secret field', () => {
  const CANARY = 'sk-canary-7c2e91f04ab3d5e6';

  it('never comes back in an answer nor in a log line', async () => {
    const a = await create();
    const f = form('Composite', AvatarEngine.LargeLanguageModel, (f) => {
      f.llmDetails.llmAPIKey = `${CANARY}-llm`;
      f.sttDetails = {
        ...f.sttDetails,
        sttProvider: SttProvider.Google,
        sttAPIKey: `{"private_key":"${CANARY}-google"}`,
        sttAPIKeyFileName: 'key.json',
        sttRegion: 'global',
        sttModel: 'long',
      };
      f.ttsDetails = {
        ...f.ttsDetails,
        ttsProvider: SpeechVoiceProvider.Polly,
        pollyAccessKey: `${CANARY}-akid`,
        pollySecretKey: `${CANARY}-polly`,
        ttsRegion: 'us-east-1',
        ttsVoice: 'Joanna:neural',
      };
    });
    const saved = await send(
      owner,
      withBrain(a, f, undefined, {
        restApiKey: `${CANARY}-rest`,
        billingAuthHeader: `Bearer ${CANARY}-billing`,
        billingAuthURL: 'https://billing.example/ping',
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const b = saved.json().agent as Avatar;
    const rt = form(
      'SpeechToSpeech',
      AvatarEngine.ParlaRealtime,
      (f) =>
        (f.realtimeDetails = {
          url: c.realtimeProviders[0]!.url,
          api_key: `${CANARY}-realtime`,
          model: c.realtimeProviders[0]!.models[0]!,
          voice_id: 'alloy',
          instructions: 'x',
          greeting: 'hi',
        }),
    );
    expect((await send(owner, withBrain(b, rt))).statusCode).toBe(200);
    const b2 = (await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: owner.token })).json().agent as Avatar;
    const agent = form(
      'None',
      AvatarEngine.ElevenLabsConversationAI,
      (f) =>
        (f.elevenLabsConversationAI = {
          agent_id: STAND_IN_AGENTS.private,
          api_key: `${CANARY}-agent`,
          status: 'private',
          connection_type: 'webrtc',
        }),
    );
    expect((await send(owner, withBrain(b2, agent))).statusCode).toBe(200);
    const list = await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: owner.token });
    const pub = await server.inject({ method: 'GET', url: `/api/public/avatar/${a.id}?token=${b.token}`, appKey: null });
    answers.push(list.body, pub.body);
    const row = await server.ctx.db.selectFrom('avatars').select('custom_data').where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row.custom_data)).not.toContain(CANARY);
    expect(answers.filter((x) => x.includes(CANARY))).toEqual([]);
    expect(server.logs.filter((l) => l.includes(CANARY) || l.includes(STAND_IN_KEYS.openai))).toEqual([]);
  });
});
