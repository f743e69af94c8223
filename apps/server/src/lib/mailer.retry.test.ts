// Mail delivery through the outbox's sender against a real SMTP stand-in that refuses recipients
// with scripted replies: a transient 451 is tried again later, a permanent 550 is not, and the
// outbox records the outcome (decision 012; tests wait milliseconds between attempts).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';

const replies = new Map<string, number[]>();
const received: string[] = [];
const attempts = new Map<string, number>();
let smtp: SMTPServer;
let server: TestServer;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      attempts.set(to, (attempts.get(to) ?? 0) + 1);
      const code = replies.get(to)?.shift();
      if (code) return callback(Object.assign(new Error(`${code} try later`), { responseCode: code }));
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address.toLowerCase()));
        callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  const port = (smtp.server.address() as AddressInfo).port;
  server = await createTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_BASE_MS: '5', MAIL_MAX_ATTEMPTS: '3' });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const outbox = (to: string) => server.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).executeTakeFirstOrThrow();
const settledRow = async (to: string) => {
  await expect.poll(async () => (await outbox(to)).status, { timeout: 10_000 }).not.toBe('queued');
  return outbox(to);
};

describe('mail delivery', () => {
  it('is tried again after two transient refusals (451) and delivered on the third attempt', async () => {
    replies.set('flaky@example.com', [451, 451]);
    await server.ctx.mailer.post({ to: 'flaky@example.com', subject: 'Hello', text: 'Third time lucky' });
    const row = await settledRow('flaky@example.com');
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
    expect(row.sent_at).not.toBeNull();
    expect(attempts.get('flaky@example.com')).toBe(3);
    expect(received).toContain('flaky@example.com');
  });

  it('gives up after the last attempt and records why in the outbox', async () => {
    replies.set('down@example.com', [451, 451, 451, 451]);
    await server.ctx.mailer.post({ to: 'down@example.com', subject: 'Hello', text: 'Never' });
    const row = await settledRow('down@example.com');
    expect(row.status).toBe('failed');
    expect(attempts.get('down@example.com')).toBe(3);
    expect(row.error).toMatch(/^Mail delivery failed after 3 attempts: .*451/);
  });

  it('is not repeated after a permanent refusal (550)', async () => {
    replies.set('gone@example.com', [550]);
    await server.ctx.mailer.post({ to: 'gone@example.com', subject: 'Hello', text: 'No such user' });
    const row = await settledRow('gone@example.com');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/^Mail delivery failed: .*550/);
    expect(attempts.get('gone@example.com')).toBe(1);
    expect(received).not.toContain('gone@example.com');
  });

  it('is sent once although two servers share the database and both are woken', async () => {
    const other = await createTestServer({ MAIL_RETRY_BASE_MS: '5' }, { sameDatabaseAs: server });
    try {
      // The other server has no SMTP_URL: whichever claims the mail decides where it goes, so
      // this one queues and wakes, both look, exactly one attempt is made.
      await server.ctx.mailer.post({ to: 'once@example.com', subject: 'Hello', text: 'Once' });
      other.ctx.mailer.wake();
      const row = await settledRow('once@example.com');
      expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    } finally {
      await other.close();
    }
  });
});
