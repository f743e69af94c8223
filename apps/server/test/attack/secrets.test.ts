// Secrets: a canary in every secret field (the avatar's REST key, JSON key, billing header and
// pipeline keys, the OAuth client secret; the default encryption key's private key is watched
// too, as everything the server encrypts is), then every route called as the owner and as
// another account. The harness fails this file (and every other test file) when a watched
// secret appears in a response body or a log line; here we also check they are encrypted at
// rest and that the harness was really watching them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarEngine } from '@parla/shared/enums';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { defaultBrainForm, formsToAvatarFields, formsToPipeline } from '@parla/shared/schemas/brain-pipeline';
import { canarySecret, createTestServer, type TestServer } from '../harness';
import { closeAll, connect, listen } from '../conversation-client';
import { startHttp, type StandIn } from '../stand-ins/runtime/http';
import { save } from '../avatar-requests';
import { asParty, ROUTES } from './route-table';
import { snapshot, tableNames } from './snapshot';
import { buildWorld, type World } from './world';

let server: TestServer;
let world: World;
/** A careless provider: every call is refused with the request's key and body echoed back. */
let leaky: StandIn;

beforeAll(async () => {
  leaky = await startHttp((req, res) => {
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: `bad key ${String(req.headers.authorization)} for ${req.body.toString('utf8').slice(0, 400)}` }));
  });
  server = await createTestServer({ OUTBOUND_ALLOW: leaky.allow, PROVIDER_URL_OVERRIDES: `api.openai.com=${leaky.url}` });
  world = await buildWorld(server);
}, 120_000);
afterAll(async () => {
  await closeAll();
  await server.close();
  await leaky.close();
});

describe('secrets', () => {
  it('are stored encrypted: no canary appears in any table', async () => {
    const rows = await snapshot(server, await tableNames(server));
    const found: string[] = [];
    for (const [field, canary] of Object.entries(world.victim.canaries)) {
      for (const [table, text] of rows) if (text.includes(canary)) found.push(`${field} in ${table}`);
    }
    expect(found).toEqual([]);
    // The default key's private key and every canary went through the encryption the harness watches.
    await server.inject({ method: 'GET', url: '/api/enc/list', token: world.victim.token });
    expect(server.watchedSecrets()).toBeGreaterThanOrEqual(Object.keys(world.victim.canaries).length + 1);
  });

  it('never appear in any answer of any route, to the owner or to another account, nor in a log line', async () => {
    let calls = 0;
    const asOwner: World = { ...world, attacker: world.victim };
    for (const [route, c] of Object.entries(ROUTES)) {
      for (const w of [asOwner, world]) {
        const who = c.kind === 'admin' ? world.admin : w.attacker;
        const reqs = [...(c.sample ? [c.sample(w)] : []), ...(c.list ? [c.list(w)] : [])];
        for (const req of reqs) {
          const res = await server.inject(asParty(c.kind, who, req));
          calls++;
          // The player's pages answer 503 until the player is built.
          if (!(res.statusCode === 503 && res.body.includes('has not been built')))
            expect(res.statusCode, `${route} ${res.body.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
    // The owner's own views of the avatar that holds the canaries.
    const v = world.victim;
    for (const url of [
      `/config-files/avatars/${v.avatar.id}/avatar.json`,
      `/config-files/avatars/${v.avatar.id}/client.json`,
      '/api/avatar/list',
      `/api/avatar/${v.avatar.id}`,
      '/api/list_oauthapp',
    ]) {
      const res = await server.inject({ method: 'GET', url, token: v.token });
      expect(res.statusCode, url).toBe(200);
      calls++;
    }
    const pub = await server.inject({ method: 'GET', url: `/api/public/avatar/${v.avatar.id}?token=${v.avatar.token}` });
    expect(pub.statusCode).toBe(200);
    console.log(
      `secrets: ${Object.keys(world.victim.canaries).length} canaries planted, ${server.watchedSecrets()} encrypted values watched, ${calls} answers searched, leaks ${server.leaks().length}`,
    );
    expect(server.leaks()).toEqual([]);
    expect(calls).toBeGreaterThan(60);
  });

  it('never reach the end user or a log line through a conversation, even when the provider echoes them', async () => {
    const host = await listen(server);
    const v = world.victim;
    const own = async () =>
      (await server.inject({ method: 'GET', url: `/api/avatar/${v.avatar.id}`, token: v.token })).json().agent as Avatar;
    const pipeline = (a: Avatar) => a.customData.agent_pipeline_config ?? {};
    const brains: [string, (a: Avatar) => Record<string, unknown>][] = [
      // The LLM key (entered in the form) goes to the LLM provider (OpenAI's address, pointed at the echoing stand-in).
      [
        'LLM',
        (a) => {
          const f = defaultBrainForm(world.catalogue);
          f.setupMode = 'Composite';
          f.nlpEngine = AvatarEngine.LargeLanguageModel;
          f.llmDetails = {
            ...f.llmDetails,
            url: world.catalogue.llmProviders.find((p) => p.id === 'openai')!.baseUrl,
            llmProvider: 'openai',
            llmAPIKey: v.canaries.llmApiKey!,
            llmModel: 'gpt-4o-mini',
          };
          return {
            ...formsToAvatarFields(f),
            setupMode: f.setupMode,
            nlpEngine: f.nlpEngine,
            customData: { ...a.customData, agent_pipeline_config: { ...pipeline(a), ...formsToPipeline(f, {}, world.catalogue) } },
          };
        },
      ],
      // The stored REST key (the form sends its mask back) goes to a REST endpoint that echoes it.
      [
        'REST endpoint',
        (a) => ({
          nlpEngine: AvatarEngine.RestEndpoint,
          restEndPointURL: `${leaky.url}/events`,
          restApiKey: a.restApiKey,
          customData: {
            ...a.customData,
            agent_pipeline_config: { ...pipeline(a), llm: { ...pipeline(a).llm, custom_text: 'The guest is Ada.' } },
          },
        }),
      ],
    ];
    const frames: string[] = [];
    const callbackSecrets: string[] = [];
    for (const [label, brain] of brains) {
      const a = await own();
      const res = await save(server, v.token, { ...a, ...brain(a) });
      expect(res.statusCode, `${label}: ${res.body}`).toBe(200);
      const before = leaky.requests.length;
      const c = await connect(host, { avatarId: v.avatar.id, token: v.avatar.token });
      c.ws.on('message', (d) => frames.push(String(d)));
      const first = await Promise.race([c.next('ready').then(() => true), c.closed.then(() => false)]);
      for (const conv of server.app.runtime.list()) callbackSecrets.push(conv.callbackToken);
      if (first) {
        c.send({ type: 'user_text', text: 'hello' });
        await c.next('assistant_done');
        c.ws.close();
      }
      await c.closed;
      frames.push(...c.messages.map((m) => JSON.stringify(m)));
      // The provider really was called with the stored key (which it echoed back).
      expect(leaky.requests.length, label).toBeGreaterThan(before);
      expect(
        leaky.requests.slice(before).some((r) => String(r.headers.authorization).includes('CANARY-SECRET-')),
        label,
      ).toBe(true);
      // The REST endpoint was sent the conversation's callback secret (and echoed it too).
      for (const r of leaky.requests.slice(before)) {
        const callback = (r.json() as { callbackUrl?: string } | null)?.callbackUrl;
        if (callback) callbackSecrets.push(new URL(callback).searchParams.get('token')!);
      }
    }
    // Wait for the conversations' ends (and their log lines) before reading the logs.
    await expect
      .poll(
        async () =>
          (
            await server.ctx.db
              .selectFrom('conversations')
              .select('id')
              .where('owner_id', '=', v.id)
              .where('ended_at', 'is', null)
              .where('node_id', 'is not', null)
              .where('user_name', 'not like', 'Guest of%')
              .execute()
          ).length,
      )
      .toBe(0);
    const text = frames.join('\n');
    const logs = server.logs.join('');
    const seen = [...Object.values(v.canaries), ...callbackSecrets].filter((secret) => text.includes(secret) || logs.includes(secret));
    console.log(
      `secrets: ${brains.length} conversations whose provider echoed the stored key: ${frames.length} frames to the end user and ${server.logs.length} log lines searched, ${seen.length} canaries or callback secrets found`,
    );
    expect(frames.join('').includes('CANARY-SECRET-'), 'a canary reached the end user').toBe(false);
    expect(seen).toEqual([]);
    expect(callbackSecrets.length).toBeGreaterThan(0);
    // The echoes were logged with the secrets cut out.
    expect(logs).toContain('[redacted]');
    expect(server.leaks()).toEqual([]);
  });

  it('are caught by the harness when one does leak (the watch is not blind)', async () => {
    const other = await createTestServer();
    const stored = 'stored-secret-' + canarySecret('x').slice(-12);
    other.ctx.secrets.encrypt(stored);
    // The 404 answer repeats the path: a leak of both a watched secret and a planted canary.
    await other.inject({ method: 'GET', url: `/no-such/${stored}` });
    other.ctx.log.warn({ value: canarySecret('log') }, 'a careless log line');
    expect(other.leaks()).toHaveLength(2);
    await expect(other.close()).rejects.toThrow(/Secrets leaked/);
  });
});
