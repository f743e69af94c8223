// EMBED → IFrame → Regenerate link (docs/decisions/207-link-token-only-for-default.md): the customer
// confirms, sees the new link and embed code; the old link shows "not available", the new one
// talks. Also the id rule of decision 206 in a real browser: the avatar's page with its id spelt
// another way loads no avatar. Screenshots go to test-results/screens/.
import { expect } from '@playwright/test';
import { test } from './support/test';
import { REGENERATE_LINK_MESSAGES as M } from '../packages/shared/src/schemas/avatar-access';
import { E2E_APP_KEY } from './support/accounts';
import { apiToken, customerWithAvatar, openEditor } from './support/brain';
import { screenshot } from './support/screenshots';

test('the customer regenerates the access link in EMBED: the old link stops working, the new one talks', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const customer = await customerWithAvatar(request, 'relink', 'Beacon');
  const token = await apiToken(request, customer);
  const agents = (
    (await (await request.get('/api/avatar/list', { headers: { authorization: `Bearer ${E2E_APP_KEY} ${token}` } })).json()) as {
      agents: { id: string; name: string; token: string }[];
    }
  ).agents;
  const beacon = agents.find((a) => a.name === 'Beacon')!;

  const page = await openEditor(browser, customer, 'Beacon', 'Brain');
  await page.getByRole('tab', { name: 'EMBED', exact: true }).click();
  const code = page.getByLabel('Embed code');
  await expect(code).toContainText(`token=${beacon.token}`);

  await page.getByRole('button', { name: M.button }).click();
  const dialog = page.getByRole('dialog', { name: M.confirmTitle });
  await expect(dialog.getByText(M.confirmText)).toBeVisible();
  await screenshot(page, 'access-link-01-confirm');
  await dialog.getByRole('button', { name: M.confirm }).click();
  await expect(dialog).toBeHidden();

  const renewed = page.getByRole('alert', { name: 'New access link' });
  await expect(renewed).toContainText(M.done);
  await expect(code).not.toContainText(`token=${beacon.token}`);
  const newToken = /token=([A-Za-z0-9_-]+)/.exec((await code.textContent()) ?? '')![1]!;
  await expect(renewed).toContainText(`/avatar/${beacon.id}?token=${newToken}`);
  await screenshot(page, 'access-link-02-renewed');

  const visitor = await browser.newPage();
  await visitor.goto(`/avatar/${beacon.id}?token=${beacon.token}`);
  await expect(visitor.getByRole('heading', { name: 'This avatar is not available' })).toBeVisible();
  await visitor.goto(`/avatar/${beacon.id}?token=${newToken}&connect=true`);
  await expect(visitor.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await visitor.getByLabel('Message').fill('Still shining?');
  await visitor.getByLabel('Message').press('Enter');
  await expect(visitor.getByRole('log', { name: 'Chat history' }).locator('.msg.assistant').last()).toHaveText('Still shining?');

  // The id rule: the same avatar with a space after its id is not loaded by the player.
  const dodged = await visitor.goto(`/avatar/${beacon.id}%20?token=${newToken}`);
  expect(dodged?.status()).toBe(404);
  expect(dodged?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(visitor.getByRole('heading', { name: 'This avatar is not available' })).toBeVisible();
  await screenshot(visitor, 'access-link-03-dodged-id');
  await visitor.close();
});
