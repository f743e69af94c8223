// EMBED → Allowed websites (docs/decisions/205-allowed-websites.md): the customer adds a website,
// saves, reloads and sees it; the avatar's own page still opens conversations (the portal's own
// origin is always allowed). Screenshots go to test-results/screens/.
import { expect } from '@playwright/test';
import { test } from './support/test';
import { ALLOWED_ORIGINS_MESSAGES } from '../packages/shared/src/schemas/allowed-origins';
import { E2E_APP_KEY } from './support/accounts';
import { apiToken, customerWithAvatar, openEditor } from './support/brain';
import { screenshot } from './support/screenshots';

test('the customer lists an allowed website in EMBED, saves, reloads and sees it; the avatar page still talks', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const customer = await customerWithAvatar(request, 'origins', 'Lighthouse');
  const page = await openEditor(browser, customer, 'Lighthouse', 'Brain');
  await page.getByRole('tab', { name: 'EMBED', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Allowed websites' })).toBeVisible();
  await expect(page.getByText('Any website may embed this avatar.')).toBeVisible();

  const website = page.getByRole('textbox', { name: 'Website' });
  await website.fill('shop.example.com/cart');
  await website.press('Enter');
  await expect(page.getByText(ALLOWED_ORIGINS_MESSAGES.invalid)).toBeVisible();
  await screenshot(page, 'allowed-websites-01-invalid');
  await website.fill('https://Shop.Example.com/');
  await page.getByRole('button', { name: 'Add website' }).click();
  const list = page.getByRole('list', { name: 'Allowed websites' });
  await expect(list.getByRole('listitem')).toHaveText(['https://shop.example.com']);

  await page.getByRole('article', { name: 'Avatar Lighthouse' }).getByRole('button', { name: 'Save', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Save Avatar' });
  await confirm.getByRole('button', { name: 'Save' }).click();
  await expect(confirm).toBeHidden();

  await page.reload();
  const card = page.getByRole('article', { name: 'Avatar Lighthouse' });
  await card.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('tab', { name: 'EMBED', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Allowed websites' }).getByRole('listitem')).toHaveText(['https://shop.example.com']);
  await screenshot(page, 'allowed-websites-02-saved');

  // The avatar's own page is on the portal's origin: it still opens a conversation.
  const token = await apiToken(request, customer);
  const agents = (
    (await (await request.get('/api/avatar/list', { headers: { authorization: `Bearer ${E2E_APP_KEY} ${token}` } })).json()) as {
      agents: { id: string; name: string; token: string }[];
    }
  ).agents;
  const lighthouse = agents.find((a) => a.name === 'Lighthouse')!;
  const visitor = await browser.newPage();
  await visitor.goto(`/avatar/${lighthouse.id}?token=${lighthouse.token}&connect=true`);
  await expect(visitor.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await visitor.getByLabel('Message').fill('Is the light on?');
  await visitor.getByLabel('Message').press('Enter');
  await expect(visitor.getByRole('log', { name: 'Chat history' }).locator('.msg.assistant').last()).toHaveText('Is the light on?');
  await visitor.close();
});
