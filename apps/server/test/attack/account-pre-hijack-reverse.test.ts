// Account pre-hijacking in the reverse order (issue 33, item 4). The owner registers her address;
// an attacker registers the same address with a password of his own right after. The owner must
// still verify at once, from the mail of her own registration, and whichever link of her inbox
// she opens, the password that gets verified is the one the mailbox owner types: the attacker's
// password never signs in on an address he does not own. No test here moves the clock: the owner
// verifies within the minute of registering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../../src/modules/auth/auth.service';
import { latestOutboxCode, uniqueEmail } from '../accounts';
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

async function verificationMails(email: string): Promise<number> {
  await settled();
  const rows = await server.ctx.db.selectFrom('mail_outbox').select('subject').where('to_address', '=', email).execute();
  return rows.filter((r) => /Verify your email/.test(r.subject)).length;
}

async function isVerified(email: string): Promise<boolean> {
  const user = await server.ctx.db.selectFrom('users').select('email_verified_at').where('email', '=', email).executeTakeFirstOrThrow();
  return user.email_verified_at !== null;
}

describe('account pre-hijacking in the reverse order', () => {
  it('lets the owner verify her own password from her own mail after the attacker registered her address', async () => {
    const email = uniqueEmail('reverse');
    await register(email, OWNER);
    const ownersLink = await latestOutboxCode(server, email, 'email-verification');
    await register(email, ATTACKER);

    const ver = await verify(ownersLink, OWNER.password);
    expect(ver.statusCode, ver.body).toBe(200);
    expect(ver.json().firstName).toBe('Olivia');
    expect((await signIn(email, ATTACKER.password)).statusCode).toBe(401);
    const owner = await signIn(email, OWNER.password);
    expect(owner.statusCode).toBe(200);
    expect(owner.json().userName).toBe('Olivia Owner');
  });

  it('verifies the password the mailbox owner types, even on the link the attacker’s registration sent', async () => {
    const email = uniqueEmail('reverse-newest');
    await register(email, OWNER);
    await register(email, ATTACKER);
    const newestLink = await latestOutboxCode(server, email, 'email-verification');

    expect((await verify(newestLink, OWNER.password)).statusCode).toBe(200);
    expect((await signIn(email, ATTACKER.password)).statusCode).toBe(401);
    expect((await signIn(email, OWNER.password)).statusCode).toBe(200);
  });

  it('sends the owner’s first verification mail at once when the attacker registered the address just before', async () => {
    const email = uniqueEmail('reverse-throttle');
    await register(email, ATTACKER);
    expect(await verificationMails(email)).toBe(1);
    await register(email, OWNER);
    expect(await verificationMails(email)).toBe(2);
  });

  it('refuses a verification with a password nobody registered the address with, and keeps the link usable', async () => {
    const email = uniqueEmail('reverse-wrong');
    await register(email, OWNER);
    const link = await latestOutboxCode(server, email, 'email-verification');
    const wrong = await verify(link, 'not the owner password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().displayTitle).toBe('Verification failed');
    expect(await isVerified(email)).toBe(false);
    expect((await verify(link, OWNER.password)).statusCode).toBe(200);
  });

  it('never verifies an attacker’s password through the mailbox of somebody who did not register', async () => {
    const email = uniqueEmail('reverse-curious');
    await register(email, ATTACKER);
    const link = await latestOutboxCode(server, email, 'email-verification');
    // The owner opens a mail she did not ask for; she does not know the attacker's password.
    expect((await verify(link, OWNER.password)).statusCode).toBe(400);
    expect(await isVerified(email)).toBe(false);
    expect((await signIn(email, ATTACKER.password)).statusCode).toBe(403);
  });
});
