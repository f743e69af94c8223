// Functions as a customer and their review as an administrator: create from the example
// template (Pending), approve in Function Review, the customer sees Approved.
import { expect } from '@playwright/test';
import { test } from './support/test';
import { screenshot as shot } from './support/screenshots';
import { createCustomer, E2E_ADMIN, signIn } from './support/accounts';

test('a function is created Pending, approved by an administrator, and shown Approved', async ({ page, request, browser }) => {
  test.setTimeout(90_000);
  const customer = await createCustomer(request, 'functions');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();

  await expect(page.getByRole('heading', { name: 'Choose a Template' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please select a function template to create a custom function.')).toBeVisible();
  await expect(page.getByRole('radio', { name: /Empty Function Canvas/ })).toBeVisible();
  await shot(page, 'functions-chooser');

  // The empty canvas, with the spec's messages, then another template.
  await page.getByRole('radio', { name: /Empty Function Canvas/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Create Function' }).click();
  await expect(page.getByText('Name is a required field.')).toBeVisible();
  await expect(page.getByText('Code is a required field.')).toBeVisible();
  await page.getByRole('button', { name: 'Choose Another Template' }).click();
  await page.getByRole('radio', { name: /Example Function Template/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('File Name')).toHaveValue('get_order_status.py');
  await expect(page.getByRole('textbox', { name: 'Code' })).toContainText('def get_order_status');
  await shot(page, 'functions-editor');
  await page.getByRole('button', { name: 'Create Function' }).click();
  await expect(page.getByText('The function has been created successfully!')).toBeVisible();
  const card = page.getByRole('navigation', { name: 'Functions' }).getByRole('button', { name: 'get_order_status.py, Pending' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Last Admin Update Date: ---');
  await shot(page, 'functions-pending');

  // The administrator approves it.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(admin).toHaveURL(/\/react\/onlineusers$/);
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Function Review' }).click();
  await admin
    .getByRole('navigation', { name: 'Functions to review' })
    .getByRole('button', { name: /get_order_status\.py/ })
    .click();
  await expect(admin.getByRole('textbox', { name: 'Function code' })).toContainText('def get_order_status');
  await expect(admin.getByRole('table', { name: 'Audit trail' })).toContainText('Submitted');
  await shot(admin, 'function-review');
  await admin.getByLabel('Reason').fill('Reads a fixed table only.');
  await admin.getByRole('button', { name: 'Approve' }).click();
  await expect(admin.getByText('"get_order_status.py" approved.')).toBeVisible();
  await expect(admin.getByRole('table', { name: 'Audit trail' })).toContainText('Approved');
  await adminContext.close();

  // The author sees Approved.
  await page.reload();
  const approved = page.getByRole('navigation', { name: 'Functions' }).getByRole('button', { name: 'get_order_status.py, Approved' });
  await expect(approved).toBeVisible();
  await expect(approved).not.toContainText('Last Admin Update Date: ---');
  await approved.click();
  await expect(page.getByText(/This function is approved/)).toBeVisible();
  await shot(page, 'functions-approved');
});
