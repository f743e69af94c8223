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
