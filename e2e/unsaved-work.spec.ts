// Issue 17, item 1: a failed save keeps the editor and its text (the selection resets only on
// success), and leaving an editor with unsaved changes asks first. Failures are real: the
// server's 404 for a function deleted meanwhile, or the connection cut under the request (the
// browser stays 'online', as on a flaky network, so nothing waits for the network to return).
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, signIn } from './support/accounts';
import { screenshot as shot } from './support/screenshots';
import { customerWithAvatar } from './support/brain';
import { submitAndExpectUploaded } from './support/upload-verdict';

const CODE = 'def lookup(order_id: str) -> dict:';

async function typeCode(page: Page, text: string) {
  const code = page.getByRole('textbox', { name: 'Code' });
  await code.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** Cuts the connection of every POST to `path` until the function returned is called. */
async function cutConnection(page: Page, path: string): Promise<() => Promise<void>> {
  const glob = `**${path}`;
  await page.route(glob, (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.fallback()));
  return () => page.unroute(glob);
}

test('a function whose save fails stays in the editor with its code, and is created on the next try', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  const customer = await createCustomer(request, 'unsaved');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();

  await page.getByRole('radio', { name: /Empty Function Canvas/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('File Name').fill('lookup.py');
  await typeCode(page, CODE);

  const restore = await cutConnection(page, '/api/functions');
  await page.getByRole('button', { name: 'Create Function' }).click();
  await expect(page.getByText('Error creating item')).toBeVisible();
  await expect(page.getByLabel('File Name')).toHaveValue('lookup.py');
  await expect(page.getByRole('textbox', { name: 'Code' })).toContainText(CODE);
  await expect(page.getByRole('heading', { name: 'Choose a Template' })).toHaveCount(0);
  await shot(page, 'unsaved-function-create-failed');

  await restore();
  await page.getByRole('button', { name: 'Create Function' }).click();
  await expect(page.getByText('The function has been created successfully!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Choose a Template' })).toBeVisible();

  // An update the server refuses (the function was deleted in another tab: 404) keeps the
  // changed code too.
  await page.getByRole('navigation', { name: 'Functions' }).getByRole('button', { name: 'lookup.py, Pending' }).click();
  await typeCode(page, `${CODE} # changed`);
  const other = await browser.newPage();
  await signIn(other, customer.email, customer.password);
  await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();
  await other.getByRole('navigation', { name: 'Functions' }).getByRole('button', { name: 'lookup.py, Pending' }).click();
  await other.getByRole('button', { name: 'Delete Function' }).click();
  await other.getByRole('dialog', { name: 'Delete function' }).getByRole('button', { name: 'Delete' }).click();
  await expect(other.getByText('The function has been deleted successfully!')).toBeVisible();
  await other.close();
  await page.getByRole('button', { name: 'Update Function' }).click();
  await expect(page.getByText('Error updating item')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Code' })).toContainText('# changed');
  await shot(page, 'unsaved-function-update-failed');
});

test('leaving a function editor with unsaved changes asks first, and staying keeps the text', async ({ page, request }) => {
  const customer = await createCustomer(request, 'leave');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();
  await page.getByRole('radio', { name: /Empty Function Canvas/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('File Name').fill('draft.py');
  await typeCode(page, CODE);

  // Another screen.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge Base' }).click();
  const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(ask).toBeVisible();
  await shot(page, 'unsaved-function-leave');
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(/\/react\/functions$/);
  await expect(page.getByRole('textbox', { name: 'Code' })).toContainText(CODE);

  // Another template, inside the screen.
  await page.getByRole('button', { name: 'Choose Another Template' }).click();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a Template' })).toBeVisible();
});

test('knowledge text whose upload fails is still in the form after the error is closed', async ({ page, request }) => {
  test.setTimeout(90_000);
  const customer = await createCustomer(request, 'kbfail');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge Base' }).click();
  const form = page.getByRole('form', { name: 'Create Knowledge Base Collection' });
  await form.getByLabel('Collection Name').fill('Support');
  await form.getByRole('button', { name: 'Create Collection' }).click();
  await expect(page.getByRole('heading', { name: 'Collection Builder' })).toBeVisible();

  await page.getByRole('button', { name: 'Add Knowledge' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Knowledge' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Refunds');
  await dialog.getByRole('textbox', { name: 'Content' }).fill('Any bicycle may be returned within thirty days.');
  const restore = await cutConnection(page, '/kb/v1/collections/*/items');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('An error occurred while uploading the knowledge base.', { exact: false })).toBeVisible({
    timeout: 20_000,
  });
  await shot(page, 'unsaved-knowledge-failed');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog.getByRole('textbox', { name: 'Content' })).toHaveValue('Any bicycle may be returned within thirty days.');
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('Refunds');

  // Closing the dialog with typed text asks first.
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('Refunds');

  await restore();
  await submitAndExpectUploaded(page, 20_000);
  await expect(page.getByRole('cell', { name: 'Refunds', exact: true })).toBeVisible({ timeout: 10_000 });
});

test('invalid JSON typed in the EMBED tab counts as unsaved: leaving asks, and the text survives a change of sub-tab', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const customer = await customerWithAvatar(request, 'json', 'Jason');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  const card = page.getByRole('article', { name: 'Avatar Jason' });
  await card.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('tab', { name: 'EMBED' }).click();
  await page.getByRole('tab', { name: 'CLIENT JSON' }).click();
  const editor = page.locator('[aria-label="client.json"]').getByRole('textbox');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('{ "broken": ');
  await expect(page.getByRole('alert').filter({ hasText: 'JSON is invalid' })).toBeVisible();

  // Another sub-tab and back: the typed text is still there.
  await page.getByRole('tab', { name: 'IFrame' }).click();
  await page.getByRole('tab', { name: 'CLIENT JSON' }).click();
  await expect(editor).toContainText('{ "broken": ');
  await expect(page.getByRole('alert').filter({ hasText: 'JSON is invalid' })).toBeVisible();

  // Another screen: asked first; Cancel stays with the text.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();
  const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(ask).toBeVisible();
  await shot(page, 'unsaved-embed-json-leave');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await expect(editor).toContainText('{ "broken": ');

  // Another avatar's Close asks too; Discard leaves and forgets the text.
  await card.getByRole('button', { name: 'Close' }).click();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();
  await expect(page).toHaveURL(/\/react\/functions$/);
});
