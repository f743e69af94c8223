// Issue 17, item 5: the URL rows of Add Knowledge are prefilled with the customer's own website
// (an Allowed website of their avatars) when one is known, never with the portal's address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { newId } from '../../lib/tokens';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const ownWebsite = async (token: string) =>
  (await server.inject({ method: 'GET', url: '/api/account_info', token })).json().accountDetails.ownWebsite;

async function avatarWith(ownerId: string, origins: string[], updatedAt: Date) {
  await server.ctx.db
    .insertInto('avatars')
    .values({
      id: newId(),
      owner_id: ownerId,
      name: 'Nova',
      dh_type: '2d',
      appearance_id: 'a1',
      token: newId(),
      daily_limits: '{}',
      allowed_origins: JSON.stringify(origins),
      custom_data: '{}',
      avatar_json: '{}',
      client_json: '{}',
      created_at: updatedAt,
      updated_at: updatedAt,
    })
    .execute();
}

describe("the customer's own website", () => {
  it('is null without avatars, and without Allowed websites', async () => {
    const customer = await createCustomer(server, 'nosite');
    expect(await ownWebsite(customer.token)).toBeNull();
    await avatarWith(customer.id, [], new Date());
    expect(await ownWebsite(customer.token)).toBeNull();
  });

  it('is the first Allowed website of the most recently changed avatar that lists one', async () => {
    const customer = await createCustomer(server, 'site');
    const other = await createCustomer(server, 'othersite');
    await avatarWith(customer.id, ['https://old.example'], new Date(Date.now() - 60_000));
    await avatarWith(customer.id, ['https://shop.example', 'https://blog.example'], new Date());
    await avatarWith(customer.id, [], new Date(Date.now() + 60_000));
    await avatarWith(other.id, ['https://someone-else.example'], new Date(Date.now() + 120_000));
    expect(await ownWebsite(customer.token)).toBe('https://shop.example/');
  });
});
