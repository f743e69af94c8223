// The billing authorisation URL on save (issue 13 item 7): the runtime calls it through the
// outbound guard, so an address the guard refuses is refused when saved, with the reason; the
// avatar keeps its previous value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { save } from '../../../test/avatar-requests';
import { BILLING_URL_REFUSED } from './billing-auth-url';

let server: TestServer;
let alice: TestAccount;
let appearance: { id: string; type: string };

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'billing-url');
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
});

afterAll(async () => {
  await server.close();
});

describe('billing authorisation URL', () => {
  it('refuses a private, loopback or metadata address with a clear message and keeps the stored one', async () => {
    const base = { name: 'Billed', dhType: appearance.type, appearanceId: appearance.id };
    const created = await save(server, alice.token, {
      ...base,
      billingAuthURL: 'https://billing.example.com/authorise',
      billingAuthHeader: 'Bearer secret-billing-0123',
    });
    expect(created.statusCode, created.body).toBe(200);
    const agent = created.json().agent as { id: string; updated: string; billingAuthURL: string };
    expect(agent.billingAuthURL).toBe('https://billing.example.com/authorise');
    for (const url of [
      'http://127.0.0.1:8080/auth',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.5/bill',
      'http://localhost/bill',
    ]) {
      const res = await save(server, alice.token, { ...base, id: agent.id, updated: agent.updated, billingAuthURL: url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors.join(' '), url).toContain(BILLING_URL_REFUSED);
    }
    for (const url of ['not a url', 'ftp://billing.example.com/x']) {
      const bad = await save(server, alice.token, { ...base, id: agent.id, updated: agent.updated, billingAuthURL: url });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.join(' ')).toContain('Not a valid URL');
    }
    const stored = await server.inject({ method: 'GET', url: `/api/avatar/${agent.id}`, token: alice.token });
    expect(stored.json().agent?.billingAuthURL ?? stored.json().billingAuthURL).toBe('https://billing.example.com/authorise');
    const cleared = await save(server, alice.token, { ...base, id: agent.id, updated: agent.updated, billingAuthURL: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().agent.billingAuthURL).toBeNull();
  });
});
