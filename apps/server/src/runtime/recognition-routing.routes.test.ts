// Issue 35 item 6: the server listens (ready.listen 'server': the player streams its microphone)
// whenever the avatar has an STT configured, whatever its brain; the browser's recognition is used
// only where none is: "Default" with no speech server. A custom STT/LLM/TTS avatar on "Default"
// with no speech server was refused to every visitor ("no speech-to-text provider"); it now
// listens with the browser and speaks with the embedded voice, like the other brains.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { AvatarEngine } from '@parla/shared/enums';
import { createTestServer, type TestServer } from '../../test/harness';
import { createCustomer, type TestAccount } from '../../test/accounts';
import { closeAll, connect, listen } from '../../test/conversation-client';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../test/stand-ins/runtime/openai';
import { DEEPGRAM_KEY, startSpeechStandIn, type SpeechStandIn } from '../../test/stand-ins/runtime/speech';
import { save } from '../../test/avatar-requests';

let server: TestServer;
let host: string;
let openai: OpenAiStandIn;
let speech: SpeechStandIn;
let alice: TestAccount;
let appearance: { id: string; type: string };

async function avatar(extra: Record<string, unknown>): Promise<Avatar & { token: string }> {
  const base = { name: 'Ear', dhType: appearance.type, appearanceId: appearance.id };
  const created = (await save(server, alice.token, base)).json().agent as Avatar & { updated: string };
  const upd = await save(server, alice.token, { ...base, id: created.id, updated: created.updated, ...extra });
  expect(upd.statusCode, upd.body).toBe(200);
  return upd.json().agent;
}

const llm = {
  provider: 'openai',
  base_url: '',
  api_key: STAND_IN_KEY,
  model: 'stand-in-model',
  instructions: 'You are the desk.',
  custom_text: 'Guest: Ada.',
};

/** The STT blocks a customer can configure, with what the server needs to reach each. */
const STTS = {
  deepgram: { provider: 'deepgram', api_key: DEEPGRAM_KEY, languages: 'en-US', model: 'nova-3-general' },
  azure: { provider: 'azure', api_key: 'azure-key', region: 'westeurope', languages: 'en-US' },
  google: { provider: 'google', api_key: '{"type":"service_account"}', languages: 'en-US', model: 'long', region: 'global' },
} as const;

const BRAINS = {
  Echo: { nlpEngine: AvatarEngine.EchoTest },
  'Large Language Model': { nlpEngine: AvatarEngine.LargeLanguageModel },
} as const;

async function readyOf(a: Avatar & { token: string }) {
  const c = await connect(host, { avatarId: a.id, token: a.token });
  return c.next('ready');
}

beforeAll(async () => {
  [openai, speech] = await Promise.all([startOpenAiStandIn(), startSpeechStandIn()]);
  server = await createTestServer({
    OUTBOUND_ALLOW: [openai.allow, speech.allow].join(','),
    PROVIDER_URL_OVERRIDES: `api.openai.com=${openai.url},api.deepgram.com=${speech.url}`,
    EMBEDDED_VOICE_WORKERS: '1',
  });
  host = await listen(server);
  alice = await createCustomer(server, 'recognition-routing');
  await server.ctx.db.updateTable('users').set({ subscription_type: 4 }).where('id', '=', alice.id).execute();
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === 'image')!;
});
afterEach(() => closeAll());
afterAll(async () => {
  await server.close();
  await Promise.all([openai.close(), speech.close()]);
});

describe('which recognition an avatar gets', () => {
  for (const [brain, fields] of Object.entries(BRAINS))
    it(`a Composite ${brain} avatar with Deepgram, Azure or Google STT listens on the server`, async () => {
      for (const [name, stt] of Object.entries(STTS)) {
        const a = await avatar({
          ...fields,
          setupMode: 'Composite',
          customData: { agent_pipeline_config: { stt, tts: { provider: 'default' }, llm: { ...llm, base_url: `${openai.url}/v1` } } },
        });
        expect((await readyOf(a)).listen, `${brain} with ${name}`).toBe('server');
        closeAll();
      }
    });

  it('"Default" recognition with no speech server is the browser\'s, and the embedded voice speaks', async () => {
    const a = await avatar({
      nlpEngine: AvatarEngine.EchoTest,
      setupMode: 'Composite',
      customData: { agent_pipeline_config: { stt: { provider: 'default', languages: 'en-US' }, tts: { provider: 'default' } } },
    });
    expect(await readyOf(a)).toMatchObject({ listen: 'browser', audio: true });
  });

  it('a custom STT/LLM/TTS avatar on "Default" recognition with no speech server opens, listening with the browser, instead of being refused', async () => {
    const a = await avatar({
      nlpEngine: AvatarEngine.CUSTOM_STT_LLM_TTS,
      setupMode: 'None',
      customData: {
        agent_pipeline_config: {
          stt: { provider: 'default', languages: 'en-US' },
          tts: { provider: 'default' },
          llm: { ...llm, base_url: `${openai.url}/v1` },
        },
      },
    });
    const c = await connect(host, { avatarId: a.id, token: a.token });
    expect(await c.next('ready')).toMatchObject({ listen: 'browser', audio: true });
    await c.next('assistant_done'); // the greeting
    const done = await c.ask('When do you open?');
    expect(done.text).toBe('You asked: When do you open?');
    // Configured, the same avatar's Deepgram listens on the server.
    const withDeepgram = await avatar({
      nlpEngine: AvatarEngine.CUSTOM_STT_LLM_TTS,
      setupMode: 'None',
      customData: {
        agent_pipeline_config: { stt: STTS.deepgram, tts: { provider: 'default' }, llm: { ...llm, base_url: `${openai.url}/v1` } },
      },
    });
    expect((await readyOf(withDeepgram)).listen).toBe('server');
  });
});
