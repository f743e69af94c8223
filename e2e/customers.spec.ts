// The administrators' customer desk: sign in as a customer in a new tab; suspend a customer
// whose open session is then logged out; reactivate them.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, E2E_ADMIN, signIn } from './support/accounts';
import { screenshot } from './support/screenshots';

async function openCustomer(adminPage: Page, email: string) {
  await adminPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
  await adminPage.getByLabel('Search by name or email').fill(email);
  const row = adminPage.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  return row;
}

test('an administrator signs in as a customer, suspends them (their open session ends) and reactivates them', async ({
  page,
  browser,
  request,
}) => {
  const customer = await createCustomer(request, 'desk');
  await signIn(page, customer.email, customer.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('region', { name: 'Account Details' }).getByText(customer.email)).toBeVisible();

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, E2E_ADMIN.email, E2E_ADMIN.password);
  let row = await openCustomer(adminPage, customer.email);
  await expect(row.getByText('ACTIVE')).toBeVisible();

  // Sign in as: a new tab signed in as the customer (admin-proxy).
  const [proxy] = await Promise.all([adminPage.waitForEvent('popup'), row.getByRole('button', { name: /^Sign in as/ }).click()]);
  await expect(proxy.getByText('Admin proxy')).toBeVisible();
  await proxy.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(proxy.getByRole('region', { name: 'Account Details' }).getByText(customer.email)).toBeVisible();
  await screenshot(proxy, 'customers-sign-in-as');
  await proxy.close();

  // Suspend.
  await row.getByRole('button', { name: /^Suspend/ }).click();
  const confirm = adminPage.getByRole('dialog', { name: 'Suspend account' });
  await expect(confirm).toContainText('signed out at once');
  await screenshot(adminPage, 'customers-suspend-confirm');
  await confirm.getByRole('button', { name: 'Suspend' }).click();
  await expect(confirm.getByText('is suspended')).toBeVisible();
  await expect(confirm).toBeHidden({ timeout: 5000 });
  await expect(row.getByText('SUSPENDED')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Sign in as/ })).toBeDisabled();
  await screenshot(adminPage, 'customers-suspended');

  // The customer's open session is refused on its next call and the portal signs them out.
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/react\/login$/);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('This account has been suspended. Please contact support.')).toBeVisible();
  await screenshot(page, 'customers-suspended-sign-in');

  // Reactivate: the customer can sign in again.
  row = await openCustomer(adminPage, customer.email);
  await row.getByRole('button', { name: /^Reactivate/ }).click();
  const reactivate = adminPage.getByRole('dialog', { name: 'Reactivate account' });
  await reactivate.getByRole('button', { name: 'Reactivate' }).click();
  await expect(reactivate.getByText('is active again')).toBeVisible();
  await expect(row.getByText('ACTIVE')).toBeVisible();
  await adminContext.close();

  await signIn(page, customer.email, customer.password);
  await expect(page).not.toHaveURL(/\/react\/login/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('region', { name: 'Account Details' }).getByText('ACTIVE')).toBeVisible();
});

test('a customer cannot open the Customers screen', async ({ page, request }) => {
  const customer = await createCustomer(request, 'notadmin');
  await signIn(page, customer.email, customer.password);
  await expect(page).not.toHaveURL(/\/react\/login/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' })).toHaveCount(0);
  const res = await page.request.get('/api/admin/customers');
  expect(res.status()).toBe(401);
});
