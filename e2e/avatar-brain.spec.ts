// The Brain tab's containers and the online users of an avatar: KNOWLEDGE BASE opens for the
// large-language-model engine and links a collection (the list hides what is linked), FUNCTIONS
// stays closed without the realtime flag, and the card counts the open conversations.
import { expect, type APIRequestContext } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, E2E_APP_KEY, signIn, type Customer } from './support/accounts';
import { screenshot } from './support/screenshots';
import { seedConversations } from './support/seed';

async function collectionFor(request: APIRequestContext, customer: Customer, name: string): Promise<void> {
  const login = await request.post('/api/login', {
    headers: { authorization: `Bearer ${E2E_APP_KEY}` },
    data: { email: customer.email, password: customer.password },
  });
  const { sessionId } = (await login.json()) as { sessionId: string };
  const jwt = await request.get('/api/token/jwt', { headers: { authorization: `Bearer ${E2E_APP_KEY} ${sessionId}` } });
  const { jwtToken } = (await jwt.json()) as { jwtToken: string };
  const made = await request.post('/kb/v1/collections', { headers: { authorization: `Bearer ${jwtToken}` }, data: { name } });
  expect(made.ok(), await made.text()).toBe(true);
}

test('the Brain tab links a knowledge collection once the engine allows it, and the card counts online users', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const customer = await createCustomer(request, 'brain');
  await collectionFor(request, customer, 'Product manuals');
  await signIn(page, customer.email, customer.password);
  await page.getByRole('tab', { name: 'UPPER BODY 3D' }).click();
  await page.getByRole('listbox', { name: 'Avatar appearances' }).getByRole('option').first().click();
  await page.getByLabel('Avatar Name').fill('Sage');
  await page.getByRole('button', { name: 'CREATE AVATAR' }).click();
  await page.getByRole('dialog', { name: 'Avatar created' }).getByRole('button', { name: 'OK' }).click();

  await page.getByRole('tab', { name: 'Brain' }).click();
  await expect(page.getByRole('tab', { name: 'KNOWLEDGE BASE' })).toBeDisabled();
  await expect(page.getByText('currently set')).toBeVisible();
  await page.getByRole('combobox', { name: 'Avatar Engine' }).click();
  await page.getByRole('option', { name: 'Large Language Model' }).click();
  await expect(page.getByRole('tab', { name: 'KNOWLEDGE BASE' })).toBeEnabled();
  await expect(page.getByRole('tab', { name: 'FUNCTIONS' })).toBeDisabled();
  await screenshot(page, 'avatars-13-brain');

  await page.getByRole('tab', { name: 'KNOWLEDGE BASE' }).click();
  await page.getByRole('combobox', { name: 'Knowledge base collections' }).click();
  await page.getByRole('option', { name: 'Product manuals' }).click();
  await page.getByRole('combobox', { name: 'Knowledge base collections' }).click();
  await expect(page.getByRole('option', { name: 'Product manuals' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await screenshot(page, 'avatars-14-knowledge');
  const card = page.getByRole('article', { name: 'Avatar Sage' });
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('dialog', { name: 'Save Avatar' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Avatar updated successfully.').last()).toBeVisible();
  await expect(card.getByText('Large Language Model')).toBeVisible();

  await page.reload();
  await card.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('tab', { name: 'Brain' }).click();
  await page.getByRole('tab', { name: 'KNOWLEDGE BASE' }).click();
  await expect(page.getByRole('button', { name: 'Product manuals' })).toBeVisible();

  // Two visitors talking to the avatar: the refresh counts them, the dialog lists them.
  const avatarId = (await card.locator('dd').first().innerText()).trim();
  const now = Date.now();
  await seedConversations(request, customer.email, [
    { avatarId, avatarName: 'Sage', startedAt: now - 60_000, endedAt: null },
    { avatarId, avatarName: 'Sage', startedAt: now - 30_000, endedAt: null },
    { avatarId, avatarName: 'Sage', startedAt: now - 90_000, endedAt: now - 10_000 },
  ]);
  await card.getByRole('button', { name: 'Refresh online users' }).click();
  await card.getByRole('button', { name: '2 online users of Sage' }).click();
  const dialog = page.getByRole('dialog', { name: 'Online Users' });
  await expect(dialog.getByText('2 users online')).toBeVisible();
  await expect(dialog.getByText('E2E visitor')).toHaveCount(2);
  await expect(dialog.getByText(/^[\w-]{20}…$/).first()).toBeVisible();
  await screenshot(page, 'avatars-15-online-users');
});
