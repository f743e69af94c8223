// Encryption keys as a customer: the default key is there, a new key's private key is shown
// once and copied, the key is listed, the default key cannot be deleted (its button is disabled).
import { expect } from '@playwright/test';
import { test } from './support/test';
import { screenshot as shot } from './support/screenshots';
import { createCustomer, signIn } from './support/accounts';

test('a customer creates an encryption key, copies it, and cannot delete the default key', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const customer = await createCustomer(request, 'keys');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Encryption Keys' }).click();

  const list = page.getByRole('list', { name: 'Your encryption keys' });
  await expect(list.getByText('Default Key')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create an Encryption Key' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Create an Encryption Key' });
  await form.getByRole('button', { name: 'Create Encryption Key' }).click();
  await expect(page.getByText('Name is a required field.')).toBeVisible();
  await form.getByLabel('Encryption Name').fill('Website widget');
  await form.getByRole('button', { name: 'Create Encryption Key' }).click();

  const pem = page.getByLabel('Private key PEM');
  await expect(pem).toContainText('-----BEGIN PRIVATE KEY-----');
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Encryption Key Copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('-----BEGIN PRIVATE KEY-----');
  await expect(list.getByText('Website widget')).toBeVisible();
  await shot(page, 'encryption-keys-created');
  await expect(page.getByText('Encryption Key Copied!')).toBeHidden({ timeout: 5000 });

  // The default key's delete button is disabled and says why (the server refuses it too).
  await expect(list.getByRole('button', { name: 'Delete Default Key' })).toBeDisabled();
  await list.getByRole('button', { name: 'Delete Default Key' }).locator('..').hover();
  await expect(page.getByRole('tooltip')).toContainText('The default key cannot be deleted');
  await shot(page, 'encryption-keys-default-refused');
  await expect(list.getByText('Default Key')).toBeVisible();

  // Leaving and coming back: the private key is gone for good.
  await page.reload();
  await expect(page.getByLabel('Private key PEM')).toHaveCount(0);
});
