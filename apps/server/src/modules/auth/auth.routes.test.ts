import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, latestOutboxCode, login, uniqueEmail } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { linkIn, startSmtpCapture, type SmtpCapture } from '../../../test/smtp-capture';
import { passwordHashCount } from '../../lib/passwords';
import { settled } from './auth.service';

let server: TestServer;
let smtp: SmtpCapture;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await createTestServer({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

describe('registration and verification', () => {
  it('sends a verification mail over SMTP whose link verifies the account and allows sign-in', async () => {
    const email = uniqueEmail('reg');
    const res = await server.inject({
      method: 'POST',
      url: '/api/register',
      payload: { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Engines', email, password: 'analytical engine' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });

    const mail = await smtp.waitFor(email);
    const { url, code } = linkIn(mail, 'email-verification');
    expect(url.startsWith('http://parla.test/react/email-verification/')).toBe(true);

    const before = await server.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'analytical engine' } });
    expect(before.statusCode).toBe(403);
    expect(before.json().errors[0]).toMatch(/verify your email/);

    const ver = await server.inject({
      method: 'POST',
      url: '/api/email_verification',
      payload: { verificationCode: code, mode: 'verify', password: 'analytical engine' },
    });
    expect(ver.statusCode).toBe(200);
    expect(ver.json()).toMatchObject({ status: 'OK', email, firstName: 'Ada', errors: [] });
    expect(ver.json().displayMessage).toContain(email);

    const again = await server.inject({
      method: 'POST',
      url: '/api/email_verification',
      payload: { verificationCode: code, mode: 'verify', password: 'analytical engine' },
    });
    expect(again.json()).toMatchObject({ status: 'OK', displayTitle: 'Email already verified' });

    const ok = await server.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'analytical engine' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'OK', userName: 'Ada Lovelace', userType: 'CUSTOMER', adminProxy: false });
  });

  it('answers an unknown verification code with the server message and a failure status', async () => {
    const res = await server.inject({
      method: 'POST',
      url: '/api/email_verification',
      payload: { verificationCode: 'nope', mode: 'verify', password: 'whatever password' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'ERROR', displayTitle: 'Verification failed' });
    expect(res.json().displayMessage).toMatch(/invalid or has expired/);
  });

  it('does not reveal that an email is already registered', async () => {
    const account = await createCustomer(server, 'dup');
    const res = await server.inject({
      method: 'POST',
      url: '/api/register',
      payload: { firstName: 'Other', lastName: 'Person', email: account.email, password: 'another password' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    const mail = await smtp.waitFor(account.email, (m) => /already have one/.test(m.text));
    expect(mail.subject).toMatch(/account/);
    // The original password still works.
    await login(server, account.email, account.password);
  });

  it('refuses registration when the portal setting turns it off', async () => {
    const closed = await createTestServer({ ALLOW_REGISTRATION: 'false' });
    try {
      const settings = await closed.inject({ method: 'GET', url: '/api/portal_settings', appKey: null });
      expect(settings.json().allowRegistration).toBe(false);
      const res = await closed.inject({
        method: 'POST',
        url: '/api/register',
        payload: { firstName: 'A', lastName: 'B', email: uniqueEmail(), password: 'long enough' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().errors).toEqual(['Registration is currently disabled.']);
    } finally {
      await closed.close();
    }
  });

  it('gives the spec messages for a bad registration', async () => {
    const res = await server.inject({ method: 'POST', url: '/api/register', payload: { email: 'not-an-email', password: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(7);
    expect(res.json().errors).toEqual(
      expect.arrayContaining(['First Name is required', 'Last Name is required', 'Email is Invalid', 'Password is required']),
    );
  });
});

describe('sign-in and sessions', () => {
  it('answers an unknown email and a wrong password identically', async () => {
    const account = await createCustomer(server, 'same');
    const wrong = await server.inject({ method: 'POST', url: '/api/login', payload: { email: account.email, password: 'wrong password' } });
    const unknown = await server.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: uniqueEmail('ghost'), password: 'wrong password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.json()).toEqual({ status: 'ERROR', code: 6, errors: ['Invalid email or password.'] });
  });

  it('gives a 12 hour session, or 30 days with Remember me', async () => {
    const account = await createCustomer(server, 'ttl');
    const now = Date.now();
    const short = await server.inject({ method: 'POST', url: '/api/login', payload: { email: account.email, password: account.password } });
    const long = await server.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: account.email, password: account.password, rememberMe: true },
    });
    const hours = (iso: string) => (Date.parse(iso) - now) / 3_600_000;
    expect(hours(short.json().expiryDate)).toBeCloseTo(12, 0);
    expect(hours(long.json().expiryDate) / 24).toBeCloseTo(30, 0);
    expect(short.json().sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('stores only a hash of the session token', async () => {
    const account = await createCustomer(server, 'hash');
    const rows = await server.ctx.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === account.token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('revokes the token at once on logout', async () => {
    const account = await createCustomer(server, 'logout');
    const jwt = await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token });
    expect(jwt.statusCode).toBe(200);
    const out = await server.inject({ method: 'GET', url: '/api/logout', token: account.token });
    expect(out.json()).toEqual({ status: 'OK' });
    const after = await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe(6);
  });

  it('expires a session at its expiry date', async () => {
    const account = await createCustomer(server, 'expiry');
    server.advance(12 * 3_600_000 + 1000);
    try {
      const res = await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token });
      expect(res.statusCode).toBe(401);
    } finally {
      server.advance(-(12 * 3_600_000 + 1000));
    }
  });

  it('rejects a wrong or missing application key with 401 on every /api call but health and settings', async () => {
    const account = await createCustomer(server, 'appkey');
    const wrong = await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token, appKey: 'wrong-key-123' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe(16);
    const none = await server.inject({
      method: 'POST',
      url: '/api/login',
      appKey: null,
      payload: { email: account.email, password: account.password },
    });
    expect(none.statusCode).toBe(401);
    const health = await server.inject({ method: 'GET', url: '/api/health', appKey: null });
    expect(health.json()).toEqual({ status: 'OK', db: 'ok', disk: 'ok' });
    const settings = await server.inject({ method: 'GET', url: '/api/portal_settings', appKey: null });
    expect(settings.json()).toMatchObject({ allowRegistration: true, skipHome: true, productName: 'Parla' });
  });

  it('refuses sign-in and ends the sessions of a suspended account', async () => {
    const account = await createCustomer(server, 'suspended');
    await server.ctx.db.updateTable('users').set({ status: 'SUSPENDED' }).where('id', '=', account.id).execute();
    const call = await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token });
    expect(call.statusCode).toBe(401);
    const res = await server.inject({ method: 'POST', url: '/api/login', payload: { email: account.email, password: account.password } });
    expect(res.statusCode).toBe(403);
    expect(res.json().errors).toEqual(['This account has been suspended. Please contact support.']);
  });
});

describe('lockout', () => {
  it('answers 429 with Retry-After after 10 failures in 15 minutes, without hashing, and a reset still works', async () => {
    const account = await createCustomer(server, 'lock');
    for (let i = 0; i < 10; i++) {
      const r = await server.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: account.email, password: `bad-${i}-password` },
      });
      expect(r.statusCode).toBe(401);
    }
    const hashes = passwordHashCount();
    const locked = await server.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: account.email, password: account.password },
    });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(locked.json().errors[0]).toMatch(/reset your password/);
    expect(passwordHashCount()).toBe(hashes);

    const forgot = await server.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: account.email } });
    expect(forgot.statusCode).toBe(200);
    const code = await latestOutboxCode(server, account.email, 'reset-password');
    const reset = await server.inject({
      method: 'POST',
      url: '/api/reset_password',
      payload: { resetToken: code, newPassword: 'a brand new secret', mode: 'reset' },
    });
    expect(reset.json()).toMatchObject({ status: 'OK' });
    await login(server, account.email, 'a brand new secret');
  });

  it('lets the lockout lapse after the window', async () => {
    const account = await createCustomer(server, 'lapse');
    for (let i = 0; i < 10; i++) {
      await server.inject({ method: 'POST', url: '/api/login', payload: { email: account.email, password: 'nope nope nope' } });
    }
    server.advance(15 * 60_000 + 1000);
    try {
      await login(server, account.email, account.password);
    } finally {
      server.advance(-(15 * 60_000 + 1000));
    }
  });

  it('limits requests per address before any hashing', async () => {
    const limited = await createTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const hashes = passwordHashCount();
      const codes: number[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await limited.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: `x${i}@example.com`, password: 'whatever it is' },
        });
        codes.push(r.statusCode);
        if (r.statusCode === 429) {
          expect(r.headers['retry-after']).toBeDefined();
          expect(r.json()).toMatchObject({ status: 'ERROR', code: 14 });
        }
      }
      expect(codes.filter((c) => c === 429)).toHaveLength(3);
      expect(passwordHashCount() - hashes).toBe(5);
    } finally {
      await limited.close();
    }
  });
});

describe('password reset', () => {
  it('answers forgot_password the same for unknown emails and sends nothing', async () => {
    const before = smtp.messages.length;
    const ghost = uniqueEmail('ghost');
    const res = await server.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: ghost } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    await settled();
    expect(smtp.messages.slice(before).some((m) => m.to.includes(ghost))).toBe(false);
  });

  it('validates, then resets once, ending the other sessions', async () => {
    const account = await createCustomer(server, 'reset');
    await server.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: account.email } });
    const mail = await smtp.waitFor(account.email, (m) => /reset-password/.test(m.text));
    const { code } = linkIn(mail, 'reset-password');

    const valid = await server.inject({ method: 'POST', url: '/api/reset_password', payload: { resetToken: code, mode: 'validate' } });
    expect(valid.json()).toEqual({ status: 'OK', email: account.email });

    const short = await server.inject({
      method: 'POST',
      url: '/api/reset_password',
      payload: { resetToken: code, newPassword: 'short', mode: 'reset' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual(['Password must be at least 8 characters']);

    const reset = await server.inject({
      method: 'POST',
      url: '/api/reset_password',
      payload: { resetToken: code, newPassword: 'completely new one', mode: 'reset' },
    });
    expect(reset.statusCode).toBe(200);
    const reuse = await server.inject({
      method: 'POST',
      url: '/api/reset_password',
      payload: { resetToken: code, newPassword: 'yet another one', mode: 'reset' },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().errors).toEqual(['Invalid Code']);
    const revalidate = await server.inject({ method: 'POST', url: '/api/reset_password', payload: { resetToken: code, mode: 'validate' } });
    expect(revalidate.statusCode).toBe(400);

    const old = await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token });
    expect(old.statusCode).toBe(401);
    await login(server, account.email, 'completely new one');
  });

  it('gives Empty Reset Code for an empty code and expires codes after an hour', async () => {
    const empty = await server.inject({ method: 'POST', url: '/api/reset_password', payload: { resetToken: '', mode: 'validate' } });
    expect(empty.json().errors).toEqual(['Empty Reset Code']);
    const account = await createCustomer(server, 'resetexp');
    await server.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: account.email } });
    const code = await latestOutboxCode(server, account.email, 'reset-password');
    server.advance(60 * 60_000 + 1000);
    try {
      const res = await server.inject({ method: 'POST', url: '/api/reset_password', payload: { resetToken: code, mode: 'validate' } });
      expect(res.statusCode).toBe(400);
    } finally {
      server.advance(-(60 * 60_000 + 1000));
    }
  });
});

describe('admin-proxy sign-in', () => {
  async function admin() {
    const a = await createCustomer(server, 'adm');
    await server.ctx.db.updateTable('users').set({ user_type: 'ADMIN' }).where('id', '=', a.id).execute();
    return { ...a, token: await login(server, a.email, a.password) };
  }

  it('issues a single-use code an administrator can hand to the login page', async () => {
    const a = await admin();
    const customer = await createCustomer(server, 'proxied');
    const issued = await server.inject({ method: 'POST', url: '/api/admin/impersonate', token: a.token, payload: { userId: customer.id } });
    expect(issued.statusCode).toBe(200);
    const { adminSessionId, email } = issued.json();
    expect(email).toBe(customer.email);

    const res = await server.inject({ method: 'POST', url: '/api/login', payload: { email, adminSessionId } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userType: 'CUSTOMER', adminProxy: true });
    const reuse = await server.inject({ method: 'POST', url: '/api/login', payload: { email, adminSessionId } });
    expect(reuse.statusCode).toBe(401);

    const audit = await server.ctx.db.selectFrom('audit_log').selectAll().where('target', '=', customer.id).execute();
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(['admin_proxy.issue', 'admin_proxy.sign_in']));
  });

  it('expires the code after 5 minutes and refuses another email', async () => {
    const a = await admin();
    const customer = await createCustomer(server, 'proxyexp');
    const { adminSessionId } = (
      await server.inject({ method: 'POST', url: '/api/admin/impersonate', token: a.token, payload: { userId: customer.id } })
    ).json();
    const other = await server.inject({ method: 'POST', url: '/api/login', payload: { email: a.email, adminSessionId } });
    expect(other.statusCode).toBe(401);
    const { adminSessionId: second } = (
      await server.inject({ method: 'POST', url: '/api/admin/impersonate', token: a.token, payload: { userId: customer.id } })
    ).json();
    server.advance(5 * 60_000 + 1000);
    try {
      const late = await server.inject({ method: 'POST', url: '/api/login', payload: { email: customer.email, adminSessionId: second } });
      expect(late.statusCode).toBe(401);
    } finally {
      server.advance(-(5 * 60_000 + 1000));
    }
  });

  it('is forbidden to customers and refuses suspended targets', async () => {
    const customer = await createCustomer(server, 'notadmin');
    const res = await server.inject({
      method: 'POST',
      url: '/api/admin/impersonate',
      token: customer.token,
      payload: { userId: customer.id },
    });
    expect(res.statusCode).toBe(403);
    const a = await admin();
    const unknown = await server.inject({
      method: 'POST',
      url: '/api/admin/impersonate',
      token: a.token,
      payload: { userId: 'no-such-user' },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
