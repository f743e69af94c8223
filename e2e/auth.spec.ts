// Foundation journeys: register → verify → sign in; session storage rules; password reset;
// the administrator's landing and navbar; the mobile drawer; expired tokens.
import { expect, type APIRequestContext } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, E2E_ADMIN, linkFrom, signIn, uniqueEmail, waitForMail } from './support/accounts';

test('a visitor registers, verifies from the mailed link and signs in to the avatar creator', async ({ page, request }) => {
  const email = uniqueEmail('journey');
  await page.goto('/react/register');
  await page.getByLabel('First Name').fill('Grace');
  await page.getByLabel('Last Name').fill('Hopper');
  await page.getByLabel('Company Name').fill('Compilers Inc');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('nanoseconds matter');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Verification email sent' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/register-sent.png' });

  const mail = await waitForMail(request, email, /email-verification/);
  await page.goto(linkFrom(mail, 'email-verification'));
  // The mailbox owner confirms the password she registered with (decision 011).
  await page.getByLabel('Password').fill('not my password');
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page.getByText(/not the password this email address was registered with/)).toBeVisible();
  await page.getByLabel('Password').fill('nanoseconds matter');
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page.getByText(`Your email address ${email} has been verified`)).toBeVisible();
  await expect(page.getByRole('img', { name: 'Verified', exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/email-verified.png' });

  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await signIn(page, email, 'nanoseconds matter');
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Avatar Creator' })).toBeVisible();
});

test('an invalid verification link shows the server message with a red cross', async ({ page }) => {
  await page.goto('/react/email-verification/not-a-real-code');
  await page.getByLabel('Password').fill('any password');
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page.getByText(/invalid or has expired/)).toBeVisible();
  await expect(page.getByRole('img', { name: 'Not verified' })).toBeVisible();
});

test('sign-in failures show the header and the server message', async ({ page }) => {
  await page.goto('/react/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Email').fill('nobody@example.com');
  await expect(page.getByText('Email is required')).toBeHidden();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Sigin In Failed')).toBeVisible();
  await expect(page.getByText('Invalid email or password.')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/login-failed.png' });
});

test('without Remember me the session survives a reload but not a new browser context', async ({ page, request, browser }) => {
  const customer = await createCustomer(request, 'session');
  await signIn(page, customer.email, customer.password, { rememberMe: false });
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.reload();
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await expect(page.getByRole('link', { name: 'Sign Out' })).toBeVisible();

  const other = await browser.newContext();
  const page2 = await other.newPage();
  await page2.goto('/react/avatars');
  await expect(page2).toHaveURL(/\/react\/login$/);
  await other.close();
});

test('with Remember me the session is kept in local storage', async ({ page, request }) => {
  const customer = await createCustomer(request, 'remember');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  const stored = await page.evaluate(() => localStorage.getItem('parla.auth'));
  expect(JSON.parse(stored!)).toMatchObject({ userType: 'CUSTOMER', useSession: false });
});

test('forgot password, reset from the mailed link, then sign in with the new password', async ({ page, request }) => {
  const customer = await createCustomer(request, 'forgot');
  await page.goto('/react/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(customer.email);
  await page.getByRole('button', { name: 'Send Email to Reset' }).click();
  await expect(page.getByRole('heading', { name: 'Email sent' })).toBeVisible();

  const mail = await waitForMail(request, customer.email, /reset-password/);
  await page.goto(linkFrom(mail, 'reset-password'));
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/reset-form.png' });
  await page.getByLabel('New Password').fill('my fresh password');
  await page.getByLabel('New Password').press('Enter');
  await expect(page.getByText(`Password has been reset for ${customer.email} successfully. Proceed with Login.`)).toBeVisible();

  await page.goto(linkFrom(mail, 'reset-password'));
  await expect(page.getByRole('heading', { name: 'Invalid Code' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Send Email Again' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Sign In' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/reset-invalid.png' });

  await signIn(page, customer.email, 'my fresh password');
  await expect(page).toHaveURL(/\/react\/avatars$/);
});

test('the administrator lands on Online Users with the admin navbar', async ({ page }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/react\/onlineusers$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['Online Users', 'VPS Status', 'Account', 'Sign Out'])
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  for (const label of ['Avatar Creator', 'Knowledge Base', 'Functions', 'Encryption Keys'])
    await expect(nav.getByRole('link', { name: label })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/admin-home.png' });
});

test('below 760 px the menu is a right-side drawer with Home, and Sign In when signed out', async ({ page, request }) => {
  await page.setViewportSize({ width: 500, height: 900 });
  await page.goto('/react/login');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('navigation', { name: 'Main' });
  await expect(drawer.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await page.keyboard.press('Escape');

  const customer = await createCustomer(request, 'drawer');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  for (const label of ['Home', 'Avatar Creator', 'Knowledge Base', 'Functions', 'Encryption Keys', 'Account', 'Docs', 'Sign Out']) {
    await expect(drawer.getByRole('link', { name: label })).toBeVisible();
  }
  await page.screenshot({ path: 'test-results/screens/drawer.png' });
});

test('an expired stored token sends the user to sign-in and back to the page they wanted', async ({ page, request }) => {
  const customer = await createCustomer(request, 'expired');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('parla.auth')!);
    s.expiryDate = '2020-01-01T00:00:00';
    localStorage.setItem('parla.auth', JSON.stringify(s));
  });
  await page.goto('/react/account');
  await expect(page).toHaveURL(/\/react\/login$/);
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/account$/);
});

test('a revoked session is logged out at the next call', async ({ page, request }) => {
  const customer = await createCustomer(request, 'revoked');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('link', { name: 'Sign Out' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login Again' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/signed-out.png' });
  await page.goto('/react/avatars');
  await expect(page).toHaveURL(/\/react\/login$/);
});

test('an administrator signs in as a customer from a one-time link, without persisting the session', async ({ page, request }) => {
  const customer = await createCustomer(request, 'proxy');
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/react\/onlineusers$/);
  const session = await page.evaluate(() => JSON.parse(localStorage.getItem('parla.auth')!).authToken as string);
  const users = await request.post('/api/admin/impersonate', {
    headers: { authorization: `Bearer e2e-app-key-0123456789 ${session}` },
    data: { userId: await userIdOf(request, session, customer.email) },
  });
  const { adminSessionId, email } = await users.json();

  const context = await page.context().browser()!.newContext();
  const proxied = await context.newPage();
  await proxied.goto(`/react/login?adminSessionId=${encodeURIComponent(adminSessionId)}&email=${encodeURIComponent(email)}`);
  await expect(proxied).toHaveURL(/\/react\/avatars$/);
  await expect(proxied.getByText('Admin proxy')).toBeVisible();
  expect(await proxied.evaluate(() => localStorage.getItem('parla.auth') ?? sessionStorage.getItem('parla.auth'))).toBeNull();
  await context.close();
});

async function userIdOf(request: APIRequestContext, adminToken: string, email: string): Promise<string> {
  const res = await request.get('/api/admin/customers', { headers: { authorization: `Bearer e2e-app-key-0123456789 ${adminToken}` } });
  const body = (await res.json()) as { customers: { id: string; email: string }[] };
  return body.customers.find((c) => c.email === email)!.id;
}
