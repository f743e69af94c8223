// The pages' Content-Security-Policy (issue 33, item 8; decision 412) breaks nothing they load:
// the portal (signed in, the avatar creator, a created avatar, the chat widget) and the player
// (an image avatar that talks, a 3D avatar drawn through meshopt's WebAssembly, the microphone
// with the voice detector's WebAssembly and worklet on the fake device) run in Chromium with no
// `securitypolicyviolation` event and no CSP message in the console.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, signIn } from './support/accounts';

/** Collects CSP violations of the page and of its frames from now on. */
async function watchPolicy(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { cspViolations?: string[] };
      (w.cspViolations ??= []).push(`${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  return async () => {
    const inFrames = await Promise.all(
      page.frames().map((f) => f.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []).catch(() => [])),
    );
    return [...seen, ...inFrames.flat()];
  };
}

test('the portal runs under its policy: sign-in, the avatar creator, a new avatar, the chat widget', async ({ page, request }) => {
  test.setTimeout(120_000);
  const violations = await watchPolicy(page);
  const customer = await createCustomer(request, 'csp');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, customer.email, customer.password);
  await expect(page.getByRole('heading', { name: 'Avatar Creator' })).toBeVisible();
  await page.getByRole('tab', { name: 'UPPER BODY 3D' }).click();
  await page.getByRole('listbox', { name: 'Avatar appearances' }).getByRole('option').first().click();
  await page.getByLabel('Avatar Name').fill('Policy');
  await page.getByRole('button', { name: 'CREATE AVATAR' }).click();
  const created = page.getByRole('dialog', { name: 'Avatar created' });
  await expect(created).toBeVisible();
  await created.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('article', { name: 'Avatar Policy' })).toBeVisible();
  const headers = (await page.request.get('/react/avatars')).headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(await violations()).toEqual([]);
});

test('the player runs under its policy: an image avatar talks, a 3D avatar draws, the microphone listens', async ({ page }) => {
  test.slow(); // software WebGL (SwiftShader) in CI
  const violations = await watchPolicy(page);
  await page.setViewportSize({ width: 1024, height: 640 });
  const res = await page.goto('/avatar/preview?appearanceId=img-mei&connect=true');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval' blob:");
  await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByLabel('Message').fill('Hello there.');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByRole('log', { name: 'Chat history' }).locator('.msg.assistant').last()).toHaveText('Hello there.');
  // The microphone: the voice detector's WebAssembly and the capture worklet load.
  const mic = page.getByRole('button', { name: 'Microphone' });
  if (!(await mic.getAttribute('aria-pressed'))?.includes('true')) await mic.click();
  await expect(mic).toHaveAttribute('aria-pressed', 'true');
  await page.waitForTimeout(3000);
  const first = await violations();

  await page.goto('/avatar/preview?appearanceId=ub-noah&connect=true');
  await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(page.locator('canvas.face-canvas')).toBeVisible();
  expect([...first, ...(await violations())]).toEqual([]);
});
