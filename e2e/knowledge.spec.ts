// The knowledge base as a customer: a collection with a text, a URL, a crawl of a small local
// site, a PDF and a DOCX made by the test; statuses reach Ready; the retrieval box finds the
// right passage first; an item is deleted.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { makeDocx, makePdf } from '../apps/server/src/modules/knowledge/knowledge.fixtures';
import { screenshot as shot } from './support/screenshots';
import { createCustomer, signIn } from './support/accounts';
import { KNOWLEDGE_SITE_URL } from './support/stand-ins';
import { submitAndExpectUploaded, watchUploads } from './support/upload-verdict';

async function openAddKnowledge(page: Page, tab: 'Text' | 'Url' | 'Crawl' | 'File') {
  await page.getByRole('button', { name: 'Add Knowledge' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Knowledge' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('tab', { name: tab }).click();
  return dialog;
}

test('a customer builds a knowledge base and retrieves from it', async ({ page, request }) => {
  test.setTimeout(150_000);
  watchUploads(page);
  const customer = await createCustomer(request, 'knowledge');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge Base' }).click();

  // No collection selected: the create form.
  await expect(page.getByRole('heading', { name: 'Create Knowledge Base Collection' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Create Knowledge Base Collection' });
  await form.getByRole('button', { name: 'Create Collection' }).click();
  await expect(page.getByText('Collection name is a required field.')).toBeVisible();
  await shot(page, 'knowledge-create-collection');
  await form.getByLabel('Collection Name').fill('Acme support');
  await form.getByRole('button', { name: 'Create Collection' }).click();
  await expect(page.getByText('The collection has been created successfully!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Collection Builder' })).toBeVisible();
  await expect(page.getByText('This collection is empty')).toBeVisible();
  await shot(page, 'knowledge-builder-empty');

  // Text.
  let dialog = await openAddKnowledge(page, 'Text');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expect(dialog.getByText('Content is required')).toBeVisible();
  await shot(page, 'knowledge-add-text-errors');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Refund policy');
  await dialog
    .getByRole('textbox', { name: 'Content' })
    .fill('Refunds: any bicycle may be returned within thirty days for a full refund, no questions asked.');
  await submitAndExpectUploaded(page);

  // Url: one row to start with, empty with an example placeholder (no avatar lists the customer's
  // website yet; never the portal's own address); no remove button for a single row.
  dialog = await openAddKnowledge(page, 'Url');
  await expect(dialog.getByRole('textbox', { name: 'URL 1' })).toHaveValue('');
  await expect(dialog.getByRole('textbox', { name: 'URL 1' })).toHaveAttribute('placeholder', 'https://example.com/page');
  await expect(dialog.getByRole('button', { name: 'Remove URL 1' })).toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'URL 1' }).fill('not a url');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Enter a valid URL')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name 1' }).fill('Pricing page');
  await dialog.getByRole('textbox', { name: 'URL 1' }).fill(`${KNOWLEDGE_SITE_URL}/pricing`);
  await dialog.getByRole('button', { name: 'Add URL' }).click();
  await expect(dialog.getByRole('button', { name: 'Remove URL 2' })).toBeVisible();
  await shot(page, 'knowledge-add-url');
  await dialog.getByRole('button', { name: 'Remove URL 2' }).click();
  await submitAndExpectUploaded(page);

  // Crawl: nothing crawled yet, then the site's pages with select-all.
  dialog = await openAddKnowledge(page, 'Crawl');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('No URLs crawled. Please crawl the URLs before submitting.')).toBeVisible();
  await dialog.getByLabel('Website URL').fill(`${KNOWLEDGE_SITE_URL}/`);
  await dialog.getByRole('button', { name: 'Crawl' }).click();
  const selectAll = dialog.getByRole('checkbox', { name: /Select all/ });
  await expect(selectAll).toBeChecked({ timeout: 30_000 });
  await expect(dialog.getByLabel(`Name of ${KNOWLEDGE_SITE_URL}/support/warranty`)).toHaveValue('Warranty');
  await expect(dialog.getByText(`${KNOWLEDGE_SITE_URL}/private/admin`)).toHaveCount(0); // robots.txt
  await selectAll.uncheck();
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Please select a URL before submitting.')).toBeVisible();
  await dialog.getByRole('checkbox', { name: `Select ${KNOWLEDGE_SITE_URL}/support/warranty` }).check();
  await dialog.getByRole('checkbox', { name: `Select ${KNOWLEDGE_SITE_URL}/about` }).check();
  await expect(selectAll).toHaveAttribute('data-indeterminate', 'true');
  await shot(page, 'knowledge-crawl');
  await submitAndExpectUploaded(page);

  // File: a wrong type is refused in the browser; then a PDF and a DOCX made here.
  dialog = await openAddKnowledge(page, 'File');
  const fileInput = dialog.getByLabel('Document file');
  await fileInput.setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
  await expect(dialog.getByText('❌ Invalid file type or file exceeds size limit.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await fileInput.setInputFiles({
    name: 'maintenance.pdf',
    mimeType: 'application/pdf',
    buffer: makePdf(['Chain care: oil the chain every two hundred kilometres and after rain.']),
  });
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('maintenance');
  await shot(page, 'knowledge-add-file');
  await submitAndExpectUploaded(page);
  dialog = await openAddKnowledge(page, 'File');
  await dialog.getByLabel('Document file').setInputFiles({
    name: 'delivery.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: makeDocx(
      ['Delivery takes five working days within Portugal.'],
      [
        ['Zone', 'Fee'],
        ['Lisbon', 'free'],
      ],
    ),
  });
  await submitAndExpectUploaded(page);

  // Every item reaches Ready.
  const table = page.getByRole('table', { name: 'Knowledge items' });
  await expect(table.getByRole('row')).toHaveCount(7); // header + 6 items
  await expect(table.getByText(/^(Queued|Processing)$/)).toHaveCount(0, { timeout: 30_000 });
  await expect(table.getByText('Ready', { exact: true })).toHaveCount(6);
  await shot(page, 'knowledge-items-ready');

  // Retrieval testing: the right passage first.
  await page.getByLabel('Test query').fill('how often should I oil my chain?');
  await page.getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('listitem').first()).toHaveAccessibleName('Result 1: maintenance');
  await page.getByLabel('Test query').fill('delivery fee Lisbon');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(results.getByRole('listitem').first()).toHaveAccessibleName('Result 1: delivery');
  await expect(results.getByRole('listitem').first()).toContainText('Lisbon | free');
  await shot(page, 'knowledge-retrieval');

  // Delete an item.
  await table.getByRole('button', { name: 'Delete Pricing page' }).click();
  await expect(page.getByText('Are you sure you want to delete "Pricing page"? This action cannot be undone.')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('The "Pricing page" knowledge has been deleted successfully!')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(6);
});

test('the upload overlay reports a refused address and offers retry', async ({ page, request }) => {
  const customer = await createCustomer(request, 'knowledge-fail');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.goto('/react/knowledgeBase');
  const form = page.getByRole('form', { name: 'Create Knowledge Base Collection' });
  await form.getByLabel('Collection Name').fill('Guarded');
  await form.getByRole('button', { name: 'Create Collection' }).click();
  const dialog = await openAddKnowledge(page, 'Url');
  await dialog.getByRole('textbox', { name: 'Name 1' }).fill('Good');
  await dialog.getByRole('textbox', { name: 'URL 1' }).fill(`${KNOWLEDGE_SITE_URL}/about`);
  await dialog.getByRole('button', { name: 'Add URL' }).click();
  await dialog.getByRole('textbox', { name: 'Name 2' }).fill('Metadata');
  await dialog.getByRole('textbox', { name: 'URL 2' }).fill('http://169.254.169.254/latest/meta-data/');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Partial upload completed')).toBeVisible();
  await expect(dialog.getByText(/Failed to process some URLs\. Network timeout or inaccessible content detected\./)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Retry failed' })).toBeVisible();
  await shot(page, 'knowledge-upload-partial');
  await dialog.getByRole('status').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('table', { name: 'Knowledge items' }).getByText('Good')).toBeVisible();
});
