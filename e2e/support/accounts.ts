// Accounts for end-to-end tests: the administrator the test server is started with, and
// customers created the way a person does (register, open the mailed link, sign in).
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { MAIL_READER_PORT } from './ports';

export const E2E_ADMIN = { email: 'admin@parla.test', password: 'e2e administrator password' };
export const E2E_APP_KEY = 'e2e-app-key-0123456789';

let n = 0;
export function uniqueEmail(prefix = 'user'): string {
  n += 1;
  return `${prefix}${n}.${Date.now().toString(36)}@example.com`;
}

export interface MailSeen {
  to: string[];
  subject: string;
  text: string;
}

/** Waits for a captured mail to `to` whose text matches, and returns it. */
export async function waitForMail(request: APIRequestContext, to: string, match: RegExp): Promise<MailSeen> {
  let found: MailSeen | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`http://127.0.0.1:${MAIL_READER_PORT}/?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as MailSeen[];
        found = list.reverse().find((m) => match.test(m.text));
        return Boolean(found);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

export function linkFrom(mail: MailSeen, segment: string): string {
  const m = new RegExp(`https?://\\S*${segment}/[A-Za-z0-9_-]+`).exec(mail.text);
  if (!m) throw new Error(`no ${segment} link in ${mail.text}`);
  return m[0];
}

export interface Customer {
  email: string;
  password: string;
  firstName: string;
}

/** Registers and verifies a customer through the API (fast path for tests about other screens). */
export async function createCustomer(request: APIRequestContext, prefix = 'customer'): Promise<Customer> {
  const customer = { email: uniqueEmail(prefix), password: 'e2e customer password', firstName: 'Casey' };
  const auth = { authorization: `Bearer ${E2E_APP_KEY}` };
  const reg = await request.post('/api/register', {
    headers: auth,
    data: { firstName: customer.firstName, lastName: 'Tester', email: customer.email, password: customer.password },
  });
  expect(reg.ok()).toBe(true);
  const mail = await waitForMail(request, customer.email, /email-verification/);
  const code = linkFrom(mail, 'email-verification').split('/').pop()!;
  const ver = await request.post('/api/email_verification', {
    headers: auth,
    data: { verificationCode: code, mode: 'verify', password: customer.password },
  });
  expect(ver.ok()).toBe(true);
  return customer;
}

/** Signs in through the login screen, as a person does. */
export async function signIn(page: Page, email: string, password: string, opts: { rememberMe?: boolean } = {}): Promise<void> {
  await page.goto('/react/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  if (opts.rememberMe === false) await page.getByLabel('Remember me').uncheck();
  await page.getByRole('button', { name: 'Sign In' }).click();
  // Wait until the sign-in has landed (the app leaves the login page) or failed (its alert): a
  // click on the navigation before that raced the redirect that follows a successful sign-in, and
  // the redirect won (validate run: "Account" clicked, then the avatars page came and stayed).
  await expect.poll(async () => !new URL(page.url()).pathname.endsWith('/login') || (await page.getByRole('alert').isVisible())).toBe(true);
}
