import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { appForSignIn } from './oauth-configs.service';

let server: TestServer;
let alice: TestAccount;
let mallory: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'alice');
  mallory = await createCustomer(server, 'mallory');
});
afterAll(async () => {
  await server.close();
});

const SECRET = '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4';
const valid = {
  appName: 'Staff sign-in',
  partner: 'Google',
  clientId: '1234567890-abcdefghijklmnopqrstuvwxyz.apps.googleusercontent.com',
  clientSecret: SECRET,
  oauthURL: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenIssueURL: 'https://oauth2.googleapis.com/token',
};

function save(token: string, payload: unknown) {
  return server.inject({ method: 'POST', url: '/api/add_oauthapp', token, payload: payload as object });
}
function del(token: string, payload: unknown) {
  return server.inject({ method: 'POST', url: '/api/del_oauthapp', token, payload: payload as object });
}
async function list(token: string) {
  const res = await server.inject({ method: 'GET', url: '/api/list_oauthapp', token });
  expect(res.statusCode).toBe(200);
  return res.json().oauthApps as Record<string, unknown>[];
}

describe('OAuth configs', () => {
  it('creates a config with a numeric id, the product\u2019s callback URL and a masked secret', async () => {
    const res = await save(alice.token, valid);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'OK', appId: expect.any(Number) });
    expect(Date.parse(body.updated)).not.toBeNaN();
    expect(body.oauthApp).toMatchObject({
      appId: body.appId,
      appName: 'Staff sign-in',
      partner: 'Google',
      clientId: valid.clientId,
      clientSecret: '••••1234',
      callbackURL: `http://parla.test/api/oauth/callback/${body.appId}`,
    });
    const apps = await list(alice.token);
    expect(apps).toHaveLength(1);
    expect(apps[0]).toEqual(body.oauthApp);
  });

  it('never returns the secret in full, and stores it encrypted', async () => {
    const { appId } = (await save(alice.token, { ...valid, appName: 'Hidden' })).json();
    const answers = [
      (await server.inject({ method: 'GET', url: '/api/list_oauthapp', token: alice.token })).body,
      (await save(alice.token, { ...valid, appId, clientSecret: '••••1234' })).body,
    ];
    for (const text of answers) expect(text).not.toContain(SECRET);
    const row = await server.ctx.db.selectFrom('oauth_apps').select('client_secret_enc').where('id', '=', appId).executeTakeFirstOrThrow();
    expect(row.client_secret_enc).not.toContain(SECRET);
    expect(row.client_secret_enc.startsWith('v1:')).toBe(true);
    expect(server.logs.join('')).not.toContain(SECRET);
  });

  it('keeps the stored secret when the masked value comes back, and replaces it when a new one does', async () => {
    const { appId } = (await save(alice.token, { ...valid, appName: 'Rotating' })).json();
    const kept = await save(alice.token, { ...valid, appId, appName: 'Rotating 2', clientSecret: '••••1234' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().oauthApp.appName).toBe('Rotating 2');
    expect((await appForSignIn(server.ctx, alice.id, appId))?.clientSecret).toBe(SECRET);

    const replaced = await save(alice.token, { ...valid, appId, clientSecret: 'a-brand-new-secret-9876' });
    expect(replaced.json().oauthApp.clientSecret).toBe('••••9876');
    expect((await appForSignIn(server.ctx, alice.id, appId))?.clientSecret).toBe('a-brand-new-secret-9876');
  });

  it('refuses a masked secret on create', async () => {
    const res = await save(alice.token, { ...valid, clientSecret: '••••1234' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(['Client Secret is required']);
  });

  it('answers 404 for another account\u2019s config on edit and delete, and leaves it alone', async () => {
    const { appId } = (await save(alice.token, { ...valid, appName: 'Alice only' })).json();
    const edit = await save(mallory.token, { ...valid, appId, appName: 'Taken over' });
    expect(edit.statusCode).toBe(404);
    expect(edit.json()).toMatchObject({ status: 'ERROR', failReason: 'NOT_FOUND' });
    const gone = await del(mallory.token, { appId, mode: 'delete' });
    expect(gone.statusCode).toBe(404);
    expect(await list(mallory.token)).toEqual([]);
    expect((await list(alice.token)).some((a) => a.appId === appId && a.appName === 'Alice only')).toBe(true);
    expect(await appForSignIn(server.ctx, mallory.id, appId)).toBeNull();
  });

  it('deletes a config', async () => {
    const { appId } = (await save(alice.token, { ...valid, appName: 'Short lived' })).json();
    const res = await del(alice.token, { appId: String(appId), mode: 'delete' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK', appId });
    expect((await list(alice.token)).some((a) => a.appId === appId)).toBe(false);
    expect((await del(alice.token, { appId, mode: 'delete' })).statusCode).toBe(404);
  });

  it('gives the spec\u2019s messages for missing fields', async () => {
    const res = await save(alice.token, { appName: ' ', partner: '', clientId: '', clientSecret: '', oauthURL: '', tokenIssueURL: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      'Name is required',
      'OAuth Identity Service is required',
      'Client Id is required',
      'Client Secret is required',
      'OAuth URL is required',
      'Token Issue URL is required',
    ]);
    const empty = await save(alice.token, {});
    expect(empty.json().errors).toContain('Name is required');
  });

  it('refuses unknown partners, non-http URLs and bad ids', async () => {
    const partner = await save(alice.token, { ...valid, partner: 'Facebook' });
    expect(partner.json().errors).toEqual(['OAuth Identity Service is required']);
    const url = await save(alice.token, { ...valid, oauthURL: 'javascript:alert(1)', tokenIssueURL: 'ftp://x.example/token' });
    expect(url.json().errors).toEqual(['OAuth URL must be a valid http(s) URL', 'Token Issue URL must be a valid http(s) URL']);
    for (const appId of [0, -1, 1.5, 'abc', 99999999999, '']) {
      const res = await del(alice.token, { appId, mode: 'delete' });
      expect(res.statusCode, String(appId)).toBe(400);
      expect(res.json().errors).toEqual(['OAuth config id is invalid']);
    }
    const mode = await del(alice.token, { appId: 1, mode: 'remove' });
    expect(mode.json().errors).toEqual(["mode must be 'delete'"]);
  });

  it('caps the number of configs per account', async () => {
    const busy = await createCustomer(server, 'busy');
    for (let i = 0; i < 50; i++) expect((await save(busy.token, { ...valid, appName: `App ${i}` })).statusCode).toBe(200);
    const over = await save(busy.token, { ...valid, appName: 'One too many' });
    expect(over.statusCode).toBe(400);
    expect(over.json().failReason).toBe('LIMIT_REACHED');
  });

  it('never answers a 5xx to arbitrary bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/add_oauthapp', '/api/del_oauthapp'),
        fc.oneof(
          fc.anything(),
          fc.record({ appId: fc.oneof(fc.integer(), fc.string(), fc.double()), mode: fc.string() }),
          fc.record({
            ...Object.fromEntries(Object.keys(valid).map((k) => [k, fc.oneof(fc.string(), fc.integer(), fc.constant(null))])),
            appId: fc.oneof(fc.integer(), fc.string()),
          }),
        ),
        async (url, body) => {
          const res = await server.inject({
            method: 'POST',
            url,
            token: mallory.token,
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify(body) ?? 'null',
          });
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
