// The account export (issue 13, decision 625): the customer downloads their account's data as
// JSON — account, avatars, knowledge with its texts, functions, OAuth configs, conversations with
// transcripts and summaries — their own only, without a secret, streamed page by page.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { closeAll, connect, listen } from '../../../test/conversation-client';
import { save } from '../../../test/avatar-requests';
import { EXPORT_PAGE } from './account-export.repository';

let server: TestServer;
let host: string;
let alice: TestAccount;
let mallory: TestAccount;
let appearance: { id: string; type: string };
const REST_KEY = 'sk-rest-export-0123456789-abcdef';
const BILLING_HEADER = 'Bearer billing-export-secret-42';
const CLIENT_SECRET = 'oauth-client-secret-export-777';
const PIPELINE_KEY = 'sk-llm-export-9876543210-zyxw';

async function avatar(owner: TestAccount, name: string, extra: Record<string, unknown> = {}): Promise<Avatar & { token: string }> {
  const res = await save(server, owner.token, { name, dhType: appearance.type, appearanceId: appearance.id, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent;
}

async function knowledge(owner: TestAccount, n: number): Promise<void> {
  const now = new Date();
  const collection = `col-${owner.id.slice(0, 8)}`;
  await server.ctx.db
    .insertInto('knowledge_collections')
    .values({ id: collection, owner_id: owner.id, name: 'Hotel facts', language: 'en', created_at: now, updated_at: now })
    .execute();
  await server.ctx.db
    .insertInto('knowledge_items')
    .values([
      {
        id: `${collection}-a`,
        owner_id: owner.id,
        collection_id: collection,
        name: 'Breakfast',
        kind: 'text',
        content: 'Breakfast is served from seven.',
        url: null,
        file_id: null,
        file_name: null,
        file_type: null,
        fail_reason: null,
        status: 'ready',
        created_at: now,
        updated_at: now,
      },
      {
        id: `${collection}-b`,
        owner_id: owner.id,
        collection_id: collection,
        name: 'Rooms page',
        kind: 'url',
        content: null,
        url: 'https://hotel.example/rooms',
        file_id: null,
        file_name: null,
        file_type: null,
        fail_reason: null,
        status: 'ready',
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
  for (let ord = 0; ord < n; ord++) {
    await server.ctx.db
      .insertInto('knowledge_chunks')
      .values({
        owner_id: owner.id,
        collection_id: collection,
        item_id: `${collection}-b`,
        ord,
        content: `Room "${ord}" has a view.`,
        ts_config: 'simple',
        tsv: sql`to_tsvector('simple', 'room')`,
      })
      .execute();
  }
}

beforeAll(async () => {
  server = await createTestServer();
  host = await listen(server);
  alice = await createCustomer(server, 'export');
  mallory = await createCustomer(server, 'export-other');
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
}, 60_000);
afterAll(async () => {
  await closeAll();
  await server.close();
});

describe('the account export', () => {
  it("holds the customer's account, avatars, knowledge texts, functions, OAuth configs and conversations with transcripts and summaries, and no secret", async () => {
    const a = await avatar(alice, 'Nova Desk', {
      restApiKey: REST_KEY,
      billingAuthURL: 'https://billing.example/authorise',
      billingAuthHeader: BILLING_HEADER,
    });
    await avatar(mallory, 'Mallory Bot');
    await knowledge(alice, EXPORT_PAGE + 3);
    await knowledge(mallory, 1);
    const fn = await server.inject({
      method: 'POST',
      url: '/api/functions',
      token: alice.token,
      payload: { functions: [{ action: 'new', name: 'lookup', code: 'def lookup(x):\n  return x\n' }] },
    });
    expect(fn.statusCode, fn.body).toBe(200);
    const app = await server.inject({
      method: 'POST',
      url: '/api/add_oauthapp',
      token: alice.token,
      payload: {
        appName: 'Partner',
        partner: 'SmartPension',
        clientId: 'client-1',
        clientSecret: CLIENT_SECRET,
        oauthURL: 'https://partner.example/authorize',
        tokenIssueURL: 'https://partner.example/token',
      },
    });
    expect(app.statusCode, app.body).toBe(200);
    await server.ctx.db
      .updateTable('avatars')
      .set({
        custom_data: JSON.stringify({
          agent_pipeline_config: { llm: { provider: 'openai', api_key: server.ctx.secrets.encrypt(PIPELINE_KEY), model: 'm' } },
        }) as never,
      })
      .where('id', '=', a.id)
      .execute();

    const c = await connect(host, { avatarId: a.id, token: a.token });
    const { sessionId } = await c.next('ready');
    await c.next('assistant_done');
    await c.ask('A room with a view, please');
    c.send({ type: 'bye' });
    await c.closed;
    await server.ctx.db.updateTable('conversations').set({ summary: 'Wants a room with a view.' }).where('id', '=', sessionId).execute();

    const res = await server.inject({ method: 'GET', url: '/api/account/export', token: alice.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="parla-account-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = res.json();
    expect(data).toMatchObject({ format: 'parla-account-export', version: 1, account: { id: alice.id, email: alice.email } });
    expect(data.account.password_hash).toBeUndefined();
    expect(data.avatars.map((x: { name: string }) => x.name)).toEqual(['Nova Desk']);
    expect(data.avatars[0]).toMatchObject({
      billing_auth_url: 'https://billing.example/authorise',
      custom_data: { agent_pipeline_config: { llm: { provider: 'openai', model: 'm' } } },
    });
    expect(data.avatars[0].token).toBeUndefined();
    const [collection] = data.knowledgeCollections;
    expect(collection).toMatchObject({ name: 'Hotel facts' });
    const items = collection.items as { name: string; text: string }[];
    expect(items.find((i) => i.name === 'Breakfast')!.text).toBe('Breakfast is served from seven.');
    const page = items.find((i) => i.name === 'Rooms page')!.text.split('\n\n');
    expect(page).toHaveLength(EXPORT_PAGE + 3);
    expect(page[EXPORT_PAGE + 2]).toBe(`Room "${EXPORT_PAGE + 2}" has a view.`);
    expect(data.functions.map((f: { name: string }) => f.name)).toContain('lookup');
    expect(data.oauthConfigs).toEqual([
      expect.objectContaining({ app_name: 'Partner', client_id: 'client-1', token_issue_url: 'https://partner.example/token' }),
    ]);
    const conversation = data.conversations.find((x: { id: string }) => x.id === sessionId);
    expect(conversation.summary).toBe('Wants a room with a view.');
    expect(conversation.messages.map((m: { role: string; text: string }) => `${m.role}:${m.text}`)).toContain(
      'user:A room with a view, please',
    );

    for (const secret of [REST_KEY, BILLING_HEADER, CLIENT_SECRET, PIPELINE_KEY, a.token, 'Mallory Bot', mallory.id])
      expect(res.body).not.toContain(secret);
    const stored = await server.ctx.db
      .selectFrom('avatars')
      .select(['rest_api_key_enc', 'billing_auth_header_enc'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    for (const cipher of [stored.rest_api_key_enc!, stored.billing_auth_header_enc!]) expect(res.body).not.toContain(cipher);
    expect(res.body).not.toMatch(/api_key|client_secret|password/);
  });

  it("gives another account only its own data, and nobody's without signing in", async () => {
    const res = await server.inject({ method: 'GET', url: '/api/account/export', token: mallory.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().avatars.map((x: { name: string }) => x.name)).toEqual(['Mallory Bot']);
    expect(res.body).not.toContain(alice.id);
    expect((await server.inject({ method: 'GET', url: '/api/account/export' })).statusCode).toBe(401);
  });
});
