// Retrieval quality as a customer sees it (issue 15): an item opens to its extracted text, a web
// page re-syncs, the same page added twice is refused, and an avatar's top-k and threshold
// change what its retrieval test sends to the model; a crawl takes path patterns and a re-crawl
// schedule.
import { expect, type APIRequestContext } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, E2E_APP_KEY, signIn, type Customer } from './support/accounts';
import { screenshot } from './support/screenshots';
import { KNOWLEDGE_SITE_URL } from './support/stand-ins';

async function kbApi(request: APIRequestContext, customer: Customer) {
  const login = await request.post('/api/login', {
    headers: { authorization: `Bearer ${E2E_APP_KEY}` },
    data: { email: customer.email, password: customer.password },
  });
  const { sessionId } = (await login.json()) as { sessionId: string };
  const jwt = await request.get('/api/token/jwt', { headers: { authorization: `Bearer ${E2E_APP_KEY} ${sessionId}` } });
  const { jwtToken } = (await jwt.json()) as { jwtToken: string };
  const headers = { authorization: `Bearer ${jwtToken}` };
  return {
    collection: async (name: string) => {
      const res = await request.post('/kb/v1/collections', { headers, data: { name } });
      expect(res.ok(), await res.text()).toBe(true);
      return ((await res.json()) as { id: string }).id;
    },
    item: async (collectionId: string, item: unknown) => {
      const res = await request.post(`/kb/v1/collections/${collectionId}/items`, { headers, data: item });
      expect(res.ok(), await res.text()).toBe(true);
    },
  };
}

test('items open to their text, pages re-sync, duplicates are refused, and an avatar sets top-k and threshold', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const customer = await createCustomer(request, 'kb-quality');
  const kb = await kbApi(request, customer);
  const id = await kb.collection('Harbour Bikes');
  await kb.item(id, {
    name: 'Opening hours',
    knowledge_type: {
      text: { content: 'We open from 6:30 on weekdays. On Sundays the café opens at nine and the workshop stays closed.' },
    },
  });
  await kb.item(id, {
    name: 'Delivery',
    knowledge_type: {
      text: { content: 'Delivery by cargo bicycle costs 4.90 euros; orders above 60 euros are delivered free of charge.' },
    },
  });
  await kb.item(id, {
    name: 'ffi_closure_alloc(3)',
    knowledge_type: {
      text: { content: 'ffi_closure_alloc, ffi_closure_free: allocate and free closures; free memory with ffi_closure_free.' },
    },
  });
  await kb.item(id, {
    name: 'malloc(3)',
    knowledge_type: { text: { content: 'malloc, free, calloc: allocate and free dynamic memory; free() releases what malloc returned.' } },
  });
  await kb.item(id, { name: 'About us', knowledge_type: { url: { url: `${KNOWLEDGE_SITE_URL}/about` } } });

  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.goto('/react/knowledgeBase');
  await page.getByRole('button', { name: /Harbour Bikes/ }).click();
  const table = page.getByRole('table', { name: 'Knowledge items' });
  await expect(table.getByText('Ready', { exact: true })).toHaveCount(5, { timeout: 30_000 });
  await expect(page.getByText(/Full-text search · Detected: English/)).toBeVisible();

  // Open an item and read its text.
  await table.getByRole('button', { name: 'View Opening hours' }).click();
  const viewer = page.getByRole('dialog', { name: 'Opening hours' });
  await expect(viewer.getByRole('region', { name: 'Chunk 1' })).toContainText('On Sundays the café opens at nine');
  await screenshot(page, 'knowledge-quality-item-text');
  await viewer.getByRole('button', { name: 'Close' }).click();

  // Re-sync a web page: fetched again under the same row, Ready again.
  await table.getByRole('button', { name: 'Re-sync About us' }).click();
  await expect(page.getByText('"About us" is being fetched again.')).toBeVisible();
  await expect(table.getByText('Ready', { exact: true })).toHaveCount(5, { timeout: 30_000 });
  // The table may still show the row as it was before the re-sync (CI once opened it while the
  // page was fetched again, with no text yet): the viewer is opened again until the text is there.
  // The page is read again in an extraction child process; on a loaded host (CI at load 12) the
  // child's start alone took seconds, and the re-read took more than 30 s.
  const about = page.getByRole('dialog', { name: 'About us' });
  await expect(async () => {
    if (await about.isVisible()) await about.getByRole('button', { name: 'Close' }).click();
    await table.getByRole('button', { name: 'View About us' }).click();
    await expect(about.getByRole('region', { name: 'Chunk 1' })).toContainText('founded in 1999', { timeout: 3_000 });
  }).toPass({ timeout: 90_000 });
  await page.getByRole('dialog', { name: 'About us' }).getByRole('button', { name: 'Close' }).click();

  // The same page again: refused with the reason, nothing added.
  await page.getByRole('button', { name: 'Add Knowledge' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Knowledge' });
  await dialog.getByRole('tab', { name: 'Url' }).click();
  await dialog.getByRole('textbox', { name: 'Name 1' }).fill('About again');
  await dialog.getByRole('textbox', { name: 'URL 1' }).fill(`${KNOWLEDGE_SITE_URL}/about/`);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText(/About again: This page is already in the collection \(“About us”\)\./)).toBeVisible();
  await screenshot(page, 'knowledge-quality-duplicate');
  await dialog.getByRole('status').getByRole('button', { name: 'Close' }).click();
  // Back at the form with the typed page (nothing was saved): closed without keeping it.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('dialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('row')).toHaveCount(6);

  // Crawl only the support pages, and re-crawl the site weekly.
  await page.getByRole('button', { name: 'Add Knowledge' }).first().click();
  await dialog.getByRole('tab', { name: 'Crawl' }).click();
  await dialog.getByRole('textbox', { name: 'Website URL' }).fill(`${KNOWLEDGE_SITE_URL}/`);
  await dialog.getByRole('textbox', { name: 'Only paths' }).fill('/support/**');
  await dialog.getByRole('combobox', { name: 'Re-crawl' }).click();
  await page.getByRole('option', { name: 'Weekly' }).click();
  await dialog.getByRole('button', { name: 'Crawl', exact: true }).click();
  await expect(dialog.getByText('Select all (1 of 1 pages)')).toBeVisible();
  await screenshot(page, 'knowledge-quality-crawl-patterns');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(table.getByRole('row')).toHaveCount(7, { timeout: 30_000 });
  await expect(page.getByText(/Re-crawls weekly/)).toBeVisible({ timeout: 15_000 });

  // The collection's own retrieval test: nothing relevant for a question it cannot answer.
  await page.getByLabel('Test query').fill('Is parking free?');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(/No passage is relevant enough to reach the model/)).toBeVisible();

  // An avatar on the LLM engine linked to the collection: its retrieval test follows its settings.
  await page.goto('/react/avatars');
  await page.getByRole('tab', { name: 'UPPER BODY 3D' }).click();
  await page.getByRole('listbox', { name: 'Avatar appearances' }).getByRole('option').first().click();
  await page.getByLabel('Avatar Name').fill('Harbour');
  await page.getByRole('button', { name: 'CREATE AVATAR' }).click();
  await page.getByRole('dialog', { name: 'Avatar created' }).getByRole('button', { name: 'OK' }).click();
  await page.getByRole('tab', { name: 'Brain' }).click();
  await page.getByRole('combobox', { name: 'Avatar Engine' }).click();
  await page.getByRole('option', { name: 'Large Language Model' }).click();
  await page.getByRole('tab', { name: 'KNOWLEDGE BASE' }).click();
  await page.getByRole('combobox', { name: 'Knowledge base collections' }).click();
  await page.getByRole('option', { name: 'Harbour Bikes' }).click();
  await page.keyboard.press('Escape');

  const test_ = page.getByRole('region', { name: 'Test retrieval' });
  await test_.getByLabel('Test a question').fill('Is parking free?');
  await test_.getByRole('button', { name: 'Test retrieval' }).click();
  await expect(
    test_.getByText('Nothing clears the threshold: the avatar is told its knowledge base has no relevant information.'),
  ).toBeVisible();
  // Threshold 0: the weak passages come back, up to top-k (5).
  await page.getByRole('slider', { name: /Score threshold/ }).focus();
  await page.keyboard.press('Home');
  await expect(page.getByText('Score threshold: 0.00')).toBeVisible();
  await test_.getByRole('button', { name: 'Test retrieval' }).click();
  const passages = test_.getByRole('list', { name: 'Passages sent to the model' });
  await expect(passages.getByRole('listitem').first()).toBeVisible();
  const weak = await passages.getByRole('listitem').count();
  expect(weak).toBeGreaterThan(1);
  // Top-k 1: one passage.
  await page.getByRole('slider', { name: /Top K/ }).focus();
  await page.keyboard.press('Home');
  await expect(page.getByText('Top K: 1 passage at most')).toBeVisible();
  await test_.getByRole('button', { name: 'Test retrieval' }).click();
  await expect(passages.getByRole('listitem')).toHaveCount(1);
  await screenshot(page, 'knowledge-quality-avatar-settings');

  // Saved with the avatar.
  const card = page.getByRole('article', { name: 'Avatar Harbour' });
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('dialog', { name: 'Save Avatar' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Avatar updated successfully.').last()).toBeVisible();
  await page.reload();
  await card.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('tab', { name: 'Brain' }).click();
  await page.getByRole('tab', { name: 'KNOWLEDGE BASE' }).click();
  await expect(page.getByText('Top K: 1 passage at most')).toBeVisible();
  await expect(page.getByText('Score threshold: 0.00')).toBeVisible();
});
