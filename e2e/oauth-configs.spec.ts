// A customer creates an OAuth config through the stepper, edits it in the dialog and deletes it.
import { expect } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, signIn } from './support/accounts';
import { screenshot } from './support/screenshots';

const CLIENT_ID = '123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com';
const SECRET = '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';

test('a customer creates, edits and deletes an OAuth config', async ({ page, request }) => {
  const customer = await createCustomer(request, 'oauth');
  await signIn(page, customer.email, customer.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await page.getByRole('link', { name: 'OAuth Configs' }).click();
  await expect(page.getByRole('heading', { name: 'OAuth Configs' })).toBeVisible();
  await expect(page.getByText('No OAuth configs yet')).toBeVisible();
  await screenshot(page, 'oauth-list-empty');

  // Create: step 1 'OAuth Info'. Next is blocked until the step is valid.
  await page.getByRole('link', { name: 'Create OAuth Config' }).click();
  await expect(page).toHaveURL(/\/react\/addoauthapp$/);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('OAuth Identity Service is required')).toBeVisible();
  await screenshot(page, 'oauth-create-step1-errors');
  await page.getByRole('textbox', { name: 'Name' }).fill('Staff sign-in');
  await expect(page.getByText('Name is required')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'OAuth Identity Service' }).click();
  await page.getByRole('option', { name: 'Google' }).click();
  await expect(page.getByText('OAuth Identity Service is required')).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 2 'OAuth Details': Google's URLs are filled in; the client values are required.
  await expect(page.getByRole('textbox', { name: 'OAuth URL' })).toHaveValue('https://accounts.google.com/o/oauth2/v2/auth');
  await expect(page.getByRole('textbox', { name: 'Token Issue URL' })).toHaveValue('https://oauth2.googleapis.com/token');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Client Id is required')).toBeVisible();
  await expect(page.getByText('Client Secret is required')).toBeVisible();
  await page.getByRole('textbox', { name: 'Token Issue URL' }).fill('');
  await expect(page.getByText('Token Issue URL is required')).toBeVisible();
  await screenshot(page, 'oauth-create-step2-errors');
  await page.getByRole('textbox', { name: 'Client ID' }).fill(CLIENT_ID);
  await page.getByLabel('Client Secret').fill(SECRET);
  await page.getByRole('textbox', { name: 'Token Issue URL' }).fill('https://oauth2.googleapis.com/token');
  await expect(page.getByText('Client Id is required')).toHaveCount(0);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Staff sign-in');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();

  // Finished: Submit and the reset link.
  await expect(page.getByRole('button', { name: 'Reset' })).toBeVisible();
  await screenshot(page, 'oauth-create-ready');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('OAuth Config Created Successfully!')).toBeVisible();
  await screenshot(page, 'oauth-create-success');
  await expect(page).toHaveURL(/\/react\/oauthconfigs$/, { timeout: 6000 });

  // The card: values truncated to 30 characters, the secret masked, the product's callback URL.
  const card = page.getByRole('button', { name: /Staff sign-in/ });
  await card.click();
  await expect(page.getByText(`${CLIENT_ID.slice(0, 30)}...`)).toBeVisible();
  await expect(page.getByText('••••7788')).toBeVisible();
  await expect(page.getByText(SECRET)).toHaveCount(0);
  const callback = page.getByText(/\/api\/oauth\/callback\/\d+$/);
  await expect(callback).toBeVisible();
  expect(await callback.textContent()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/oauth/callback/\\d+$`));
  await screenshot(page, 'oauth-list-card');

  // Edit in the dialog: keep the masked secret, rename; the dialog closes 3 s after success.
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: /Edit OAuth Config/ });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Staff sign-in (prod)');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByLabel('Client Secret')).toHaveValue('••••7788');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await screenshot(page, 'oauth-edit-ready');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('OAuth Config Updated Successfully!')).toBeVisible();
  await screenshot(page, 'oauth-edit-success');
  await expect(dialog).toBeHidden({ timeout: 6000 });
  await expect(page.getByRole('button', { name: /Staff sign-in \(prod\)/ })).toBeVisible();

  // The help page explains the flow with this installation's URLs.
  await page.getByRole('link', { name: 'How OAuth configs work' }).click();
  await expect(page.getByRole('heading', { name: 'How OAuth configs work' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Your callback URLs' })).toContainText('Staff sign-in (prod)');
  await screenshot(page, 'oauth-help');
  await page.goBack();

  // Delete.
  await page.getByRole('button', { name: /Staff sign-in \(prod\)/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete OAuth Config' });
  // The card's details are still opening (their height eases in): under load a click there once
  // pressed Delete without releasing it on the button (no dialog, a CI failure), so click again.
  await expect(async () => {
    if (!(await confirm.isVisible()))
      await page
        .getByRole('region', { name: /Staff sign-in/ })
        .getByRole('button', { name: 'Delete' })
        .click();
    await expect(confirm).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByText('Deleted Successfully!')).toBeVisible();
  await screenshot(page, 'oauth-deleted');
  await expect(confirm).toBeHidden({ timeout: 5000 });
  await expect(page.getByText('No OAuth configs yet')).toBeVisible();
});
