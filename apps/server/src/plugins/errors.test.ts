import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('errors before routing', () => {
  it('answer a URL whose percent-encoding does not decode in the contract shape', async () => {
    for (const url of ['/avatar/%ED%A0%80', '/config-files/avatars/%E0%A4%A/avatar.json', '/api/public/avatar/%ff']) {
      const res = await server.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ status: 'ERROR', code: 7, errors: [expect.any(String)] });
    }
  });
});

describe('a body zod cannot even compare', () => {
  it('answers a field whose `length` is an object without a usable toString with 400, not 500', async () => {
    const { createCustomer } = await import('../../test/accounts');
    const customer = await createCustomer(server, 'length');
    for (const [url, payload] of [
      ['/api/llm/assistants', '{"avatarId":{"length":{"toString":2}}}'],
      ['/api/tts/list_voices', '{"ttsProvider":1,"avatarId":{"length":{"toString":2.2e-304},"x":1}}'],
    ] as const) {
      const res = await server.inject({
        method: 'POST',
        url,
        token: customer.token,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ status: 'ERROR', code: 7, errors: [expect.any(String)] });
    }
    expect((await server.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('text the database cannot hold', () => {
  it('answers a NUL character in a search or a stored field with 400, not 500', async () => {
    const { createAdmin, createCustomer } = await import('../../test/accounts');
    const admin = await createAdmin(server);
    const search = await server.inject({ method: 'GET', url: '/api/admin/customers?search=%00', token: admin.token });
    expect(search.statusCode, search.body).toBe(400);
    expect(search.json()).toEqual({ status: 'ERROR', code: 7, errors: ['Text must not contain NUL characters.'] });
    const customer = await createCustomer(server, 'nul');
    const saved = await server.inject({ method: 'POST', url: '/api/enc/add', token: customer.token, payload: { name: 'key\u0000name' } });
    expect(saved.statusCode, saved.body).toBeLessThan(500);
    // The process answers on.
    expect((await server.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
