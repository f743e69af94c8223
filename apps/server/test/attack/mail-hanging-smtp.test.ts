// Issue 34 item 2: with an SMTP server that accepts the connection and never answers, a request
// that sends mail got no answer in 90 s (nodemailer's own timeouts, times three attempts). Mail
// now goes through the outbox (decision 012): the request only writes the row. The "SMTP server"
// here is a loopback port that holds every connection silently, then, switched on, passes them
// to the real SMTP capture: the waiting mails are delivered and the administrator's warning goes.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer, type TestAccount } from '../accounts';
import { createTestServer, type TestServer } from '../harness';
import { startSmtpCapture, type SmtpCapture } from '../smtp-capture';

/** Each SMTP step's timeout here: the production default, so a request that waited on even one
 *  attempt would take at least this long. */
const SMTP_TIMEOUT_MS = 5000;
/** The safety bar: every answer well within one SMTP timeout (registration hashes a
 *  password; the machine may be busy). */
const PROMPT_MS = 3000;

let capture: SmtpCapture;
let silent: Server;
let answering = false;
const held = new Set<Socket>();
let server: TestServer;
let admin: TestAccount;
let customer: TestAccount;

beforeAll(async () => {
  capture = await startSmtpCapture();
  silent = createServer((socket) => {
    socket.on('error', () => undefined);
    if (!answering) {
      held.add(socket);
      socket.on('close', () => held.delete(socket));
      return;
    }
    const upstream = connect(capture.port, '127.0.0.1');
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  const port = (silent.address() as AddressInfo).port;
  server = await createTestServer({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_SMTP_TIMEOUT_MS: String(SMTP_TIMEOUT_MS),
    MAIL_RETRY_BASE_MS: '50',
    MAIL_MAX_ATTEMPTS: '50',
  });
  // Accounts are verified from the outbox rows (test/accounts.ts), not from delivered mail.
  admin = await createAdmin(server);
  customer = await createCustomer(server, 'hanging');
});
afterAll(async () => {
  await server.close();
  for (const s of held) s.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
  await capture.close();
});

async function timed(run: () => Promise<{ statusCode: number; body: string }>): Promise<number> {
  const t0 = performance.now();
  const res = await run();
  expect(res.statusCode, res.body).toBe(200);
  return performance.now() - t0;
}

const mailStatus = async () => {
  const res = await server.inject({ method: 'GET', url: '/api/admin/mail_status', token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().mail as { waiting: number; retrying: number; failed: number; lastError: string | null; failing: boolean };
};

describe('mail while the SMTP server accepts and never answers', () => {
  it('answers a plan request, a registration and a password reset promptly', async () => {
    const ms = [
      await timed(() => server.inject({ method: 'POST', url: '/api/account_upgrade', token: customer.token, payload: { subType: 2 } })),
      await timed(() =>
        server.inject({
          method: 'POST',
          url: '/api/register',
          payload: { firstName: 'New', lastName: 'Comer', email: 'newcomer@example.com', password: 'correct horse battery' },
        }),
      ),
      await timed(() => server.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: customer.email } })),
    ];
    for (const t of ms) expect(t).toBeLessThan(PROMPT_MS);
    // The plan request's mail to the administrator is in the outbox, queued, not sent.
    const rows = await server.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', admin.email).execute();
    expect(rows.some((r) => r.status === 'queued' && r.text_body.includes(customer.email))).toBe(true);
  });

  it('tells the administrator that mail delivery is failing, with the last error', async () => {
    await expect.poll(async () => (await mailStatus()).failing, { timeout: SMTP_TIMEOUT_MS * 3 }).toBe(true);
    const status = await mailStatus();
    expect(status.waiting).toBeGreaterThanOrEqual(3);
    expect(status.lastError).toMatch(/Greeting never received|timeout/i);
    // Other requests are not held up meanwhile either.
    expect(await timed(() => server.inject({ method: 'GET', url: '/api/health' }))).toBeLessThan(PROMPT_MS);
  });

  it('delivers every waiting mail once the SMTP server answers again, and the warning goes', async () => {
    answering = true;
    for (const s of held) s.destroy();
    const upgrade = await capture.waitFor(admin.email, (m) => m.text.includes(customer.email), 15_000);
    expect(upgrade.subject).toMatch(/plan/i);
    await capture.waitFor('newcomer@example.com', () => true, 15_000);
    await capture.waitFor(customer.email, (m) => /reset/i.test(m.subject), 15_000);
    await expect.poll(async () => (await mailStatus()).waiting, { timeout: 15_000 }).toBe(0);
    expect(await mailStatus()).toMatchObject({ waiting: 0, retrying: 0, failed: 0, failing: false });
    // Each mail went out once.
    expect(capture.messages.filter((m) => m.text.includes(customer.email) && m.to.includes(admin.email))).toHaveLength(1);
  });
});
