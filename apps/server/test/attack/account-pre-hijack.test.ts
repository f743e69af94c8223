// Account pre-hijacking (issue 20, finding 4). An attacker registers somebody else's address
// with a password of their own before its owner does. Whatever the owner then does (registers,
// clicks a link that reached their inbox), the attacker's password must not be the one that
// gets verified, and no session created before verification outlives it. Every link of the
// address verifies the password its mailbox owner types (decision 011); the reverse order, the
// attacker registering after the owner: account-pre-hijack-reverse.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_PER_ADDRESS_INTERVAL_MS } from '@parla/shared/limits';
import { createAdmin, latestOutboxCode, uniqueEmail } from '../accounts';
import { createTestServer, type TestServer } from '../harness';
import { ATTACKER, OWNER, registrationRequests } from '../registration-requests';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

const { register, verify, signIn } = registrationRequests(() => server);

/** Moves the clock past the per-address mail interval (the attacker registered earlier). */
function later() {
  server.advance(MAIL_PER_ADDRESS_INTERVAL_MS + 1000);
}

describe('account pre-hijacking', () => {
  it('verifies the owner’s password and names, not the attacker’s, when she registers after him', async () => {
    const email = uniqueEmail('prehijack');
    await register(email, ATTACKER);
    later();
    await register(email, OWNER);
    expect((await signIn(email, OWNER.password)).statusCode).toBe(403);
    const ver = await verify(await latestOutboxCode(server, email, 'email-verification'), OWNER.password);
    expect(ver.statusCode).toBe(200);
    expect(ver.json().firstName).toBe('Olivia');

    expect((await signIn(email, ATTACKER.password)).statusCode).toBe(401);
    const owner = await signIn(email, OWNER.password);
    expect(owner.statusCode).toBe(200);
    expect(owner.json().userName).toBe('Olivia Owner');
  });

  it('verifies the owner’s password, not the attacker’s, when the owner opens the attacker’s link', async () => {
    const email = uniqueEmail('prehijack-old-link');
    await register(email, ATTACKER);
    const attackersLink = await latestOutboxCode(server, email, 'email-verification');
    later();
    await register(email, OWNER);
    // Opened without knowing the attacker's password, the link verifies nothing of his.
    expect((await verify(attackersLink, 'a guess of the owner')).statusCode).toBe(400);
    const user = await server.ctx.db.selectFrom('users').select('email_verified_at').where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.email_verified_at).toBeNull();
    const res = await verify(attackersLink, OWNER.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().firstName).toBe('Olivia');
    expect((await signIn(email, ATTACKER.password)).statusCode).toBe(401);
    expect((await signIn(email, OWNER.password)).statusCode).toBe(200);
  });

  it('sends the owner her own link at once when she registers within the mail interval after the attacker', async () => {
    const email = uniqueEmail('prehijack-quick');
    await register(email, ATTACKER);
    const attackersLink = await latestOutboxCode(server, email, 'email-verification');
    await register(email, OWNER);
    const ownersLink = await latestOutboxCode(server, email, 'email-verification');
    expect(ownersLink).not.toBe(attackersLink);
    expect((await verify(ownersLink, OWNER.password)).statusCode).toBe(200);
    expect((await signIn(email, ATTACKER.password)).statusCode).toBe(401);
    expect((await signIn(email, OWNER.password)).statusCode).toBe(200);
    // Once verified, no link of the address verifies another password.
    expect((await verify(attackersLink, ATTACKER.password)).json().displayTitle).toBe('Email already verified');
    expect((await signIn(email, ATTACKER.password)).statusCode).toBe(401);
  });

  it('ends every session of the account at its first verification', async () => {
    const email = uniqueEmail('prehijack-session');
    await register(email, ATTACKER);
    const link = await latestOutboxCode(server, email, 'email-verification');
    // The only way to a session before verification: an administrator's proxy sign-in.
    const admin = await createAdmin(server);
    const user = await server.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const issued = await server.inject({ method: 'POST', url: '/api/admin/impersonate', token: admin.token, payload: { userId: user.id } });
    const proxied = await server.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, adminSessionId: issued.json().adminSessionId },
    });
    expect(proxied.statusCode).toBe(200);
    const early = proxied.json().sessionId as string;
    expect((await server.inject({ method: 'GET', url: '/api/token/jwt', token: early })).statusCode).toBe(200);

    expect((await verify(link, ATTACKER.password)).statusCode).toBe(200);
    expect((await server.inject({ method: 'GET', url: '/api/token/jwt', token: early })).statusCode).toBe(401);
  });

  it('refuses password sign-in to an unverified account, so no session exists before verification', async () => {
    const email = uniqueEmail('prehijack-unverified');
    await register(email, ATTACKER);
    const res = await signIn(email, ATTACKER.password);
    expect(res.statusCode).toBe(403);
    const sessions = await server.ctx.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.id')
      .where('users.email', '=', email)
      .execute();
    expect(sessions).toEqual([]);
  });
});
