// A customer reads their account, the information panel and the billing report over seeded
// conversation records, asks for PRO; an administrator approves it on the Customers screen.
import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './support/test';
import dayjs from 'dayjs';
import { createCustomer, E2E_ADMIN, signIn, waitForMail } from './support/accounts';
import { screenshot } from './support/screenshots';
import { seedConversations } from './support/seed';

const MIN = 60_000;

/** Types a date into an MUI date field (month, day, year sections). */
async function typeDate(page: Page, label: string, date: dayjs.Dayjs) {
  const group = page.getByRole('group', { name: label });
  await group.getByRole('spinbutton').first().click();
  await page.keyboard.type(date.format('MMDDYYYY'));
}

function billingRow(page: Page, name: string): Locator {
  return page
    .getByRole('table', { name: 'Billing report' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name, exact: true }) });
}

async function expectRow(page: Page, name: string, minutes: string, calls: string) {
  const cells = billingRow(page, name).getByRole('cell');
  await expect(cells.nth(3)).toHaveText(minutes);
  await expect(cells.nth(4)).toHaveText(calls);
}

test('a customer reads the account and billing, asks for PRO, and an administrator approves it', async ({ page, browser, request }) => {
  const customer = await createCustomer(request, 'account');
  const now = Date.now();
  // The browser's default range starts at the beginning of the day one month ago.
  const start = dayjs().subtract(1, 'month').startOf('day').valueOf();
  await seedConversations(request, customer.email, [
    { avatarId: 'avatar-helper', avatarName: 'Helper Bot', startedAt: now - 3 * 60 * MIN, endedAt: now - 3 * 60 * MIN + 10 * MIN },
    { avatarId: 'avatar-helper', avatarName: 'Helper Bot', startedAt: now - 2 * 60 * MIN, endedAt: now - 2 * 60 * MIN + 5 * MIN },
    { avatarId: 'avatar-helper', avatarName: 'Helper Bot', startedAt: now - 60 * MIN, endedAt: now - 60 * MIN + 2.5 * MIN },
    // Straddles the start of the range: 45 of its 75 minutes are inside.
    { avatarId: 'avatar-helper', avatarName: 'Helper Bot', startedAt: start - 30 * MIN, endedAt: start + 45 * MIN },
    // Ten days before the range: only in a wider search.
    {
      avatarId: 'avatar-helper',
      avatarName: 'Helper Bot',
      startedAt: start - 10 * 24 * 60 * MIN,
      endedAt: start - 10 * 24 * 60 * MIN + 20 * MIN,
    },
    // An avatar deleted since: reported by name.
    {
      avatarId: 'avatar-deleted',
      avatarName: 'Old Avatar',
      startedAt: now - 5 * 24 * 60 * MIN,
      endedAt: now - 5 * 24 * 60 * MIN + 30 * MIN,
    },
  ]);

  await signIn(page, customer.email, customer.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/react\/account$/);

  const details = page.getByRole('region', { name: 'Account Details' });
  await expect(details.getByText(customer.email)).toBeVisible();
  await expect(details.getByText('Casey Tester')).toBeVisible();
  await expect(details.getByText('ACTIVE')).toBeVisible();
  await expect(details.getByTestId('current-plan')).toHaveText('FREE');
  await expect(details.getByText('Avatars: 0 of 2')).toBeVisible();

  // The information panel explains a field when it is clicked.
  await details.getByRole('button', { name: 'Subscription plan: show information' }).click();
  const panel = page.getByRole('complementary', { name: 'Field information' });
  await expect(panel.getByRole('heading', { name: 'Subscription plan' })).toBeVisible();
  await expect(panel.getByText('Why is this important?')).toBeVisible();
  await expect(panel.getByText('PRO: USD 399/month, 25 avatars, 2000 conversation minutes a month')).toBeVisible();

  // Default range: one month ago to today.
  await expect(page.getByRole('group', { name: 'Start date' })).toContainText(dayjs(start).format('MM/DD/YYYY').split('/')[2]!);
  await expectRow(page, 'Helper Bot', '62.5', '4');
  await expectRow(page, 'Old Avatar', '30', '1');
  await expectRow(page, 'Total', '92.5', '5');
  await screenshot(page, 'account-billing-default');

  // A wider search takes in the older conversation and the whole straddling one.
  await typeDate(page, 'Start date', dayjs(start).subtract(15, 'day'));
  await page.getByRole('button', { name: 'Search' }).click();
  await expectRow(page, 'Helper Bot', '112.5', '5');
  await expectRow(page, 'Total', '142.5', '6');

  // A start after the end is refused with the spec's toast.
  await typeDate(page, 'Start date', dayjs());
  await typeDate(page, 'End date', dayjs().subtract(1, 'day'));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Start date cannot be greater than end date.')).toBeVisible();
  await screenshot(page, 'account-billing-start-after-end');

  // Ask for PRO.
  await page.getByRole('button', { name: 'Change Subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Subscription' });
  await expect(dialog.getByRole('button', { name: 'Request Upgrade' })).toBeDisabled();
  await dialog
    .getByRole('link', { name: 'See plans here' })
    .or(dialog.getByRole('button', { name: 'See plans here' }))
    .click();
  await expect(dialog.getByRole('table', { name: 'Plans' })).toBeVisible();
  await dialog.getByRole('radio', { name: /PRO/ }).check();
  await screenshot(page, 'account-subscription-dialog');
  await dialog.getByRole('button', { name: 'Request Upgrade' }).click();
  const sent = page.getByRole('dialog', { name: 'Request Sent' });
  await expect(sent).toContainText('The administrator has been notified and will email you to confirm.');
  await screenshot(page, 'account-request-sent');
  await sent.getByRole('button', { name: 'OK' }).click();
  await expect(details.getByText('PRO (REQUESTED)')).toBeVisible();

  await page.getByRole('button', { name: 'Change Subscription' }).click();
  await expect(dialog.getByText('(REQUESTED)')).toBeVisible();
  for (const radio of await dialog.getByRole('radio').all()) await expect(radio).toBeDisabled();
  await expect(dialog.getByRole('button', { name: /Request (Upgrade|Downgrade)/ })).toBeDisabled();
  await screenshot(page, 'account-subscription-requested');
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();

  await waitForMail(request, E2E_ADMIN.email, new RegExp(customer.email.replace(/[.+]/g, '\\$&')));

  // The administrator approves it on the Customers screen.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, E2E_ADMIN.email, E2E_ADMIN.password);
  await adminPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
  await adminPage.getByLabel('Search by name or email').fill(customer.email);
  const row = adminPage.getByRole('row').filter({ hasText: customer.email });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('PRO', { exact: true })).toBeVisible();
  await screenshot(adminPage, 'customers-pending-request');
  await row.getByRole('button', { name: /^Approve plan change/ }).click();
  const confirm = adminPage.getByRole('dialog', { name: 'Approve plan change' });
  await expect(confirm).toContainText('from FREE to PRO');
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(confirm.getByText('is now on the PRO plan')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Approve plan change/ })).toHaveCount(0);
  await screenshot(adminPage, 'customers-approved');
  await adminContext.close();

  await waitForMail(request, customer.email, /approved/);
  await page.reload();
  await expect(details.getByTestId('current-plan')).toHaveText('PRO');
  await expect(details.getByText('(REQUESTED)')).toHaveCount(0);
  await expect(details.getByText('Avatars: 0 of 25')).toBeVisible();
  await screenshot(page, 'account-pro');
});

test('on a phone the account panes stack and the OAuth screens fit', async ({ browser, request }) => {
  const customer = await createCustomer(request, 'phone');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, customer.email, customer.password);
  await expect(page).not.toHaveURL(/\/react\/login/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name: 'Account' }).click();
  const details = page.getByRole('region', { name: 'Account Details' });
  await expect(details.getByText(customer.email)).toBeVisible();
  await details.getByRole('button', { name: 'Status: show information' }).click();
  // The information panel sits right under the details on a phone.
  const panel = page.getByRole('complementary', { name: 'Field information' });
  await expect(panel.getByRole('heading', { name: 'Status' })).toBeVisible();
  const detailsBox = (await details.boundingBox())!;
  const panelBox = (await panel.boundingBox())!;
  expect(panelBox.y).toBeGreaterThan(detailsBox.y + detailsBox.height - 1);
  expect(panelBox.width).toBeGreaterThan(300);
  await expect(page.getByRole('table', { name: 'Billing report' })).toBeVisible();
  await screenshot(page, 'account-phone');
  await page.getByRole('link', { name: 'OAuth Configs' }).click();
  await expect(page.getByRole('link', { name: 'Create OAuth Config' })).toBeVisible();
  await screenshot(page, 'oauth-list-phone');
  await page.getByRole('link', { name: 'Create OAuth Config' }).click();
  await expect(page.getByText('OAuth Info')).toBeVisible();
  await screenshot(page, 'oauth-create-phone');
  await context.close();
});

test('a customer downloads their data from the Account screen as JSON', async ({ page, request }) => {
  const customer = await createCustomer(request, 'export');
  const now = Date.now();
  await seedConversations(request, customer.email, [
    { avatarId: 'avatar-helper', avatarName: 'Helper Bot', startedAt: now - 60 * MIN, endedAt: now - 55 * MIN },
  ]);
  await signIn(page, customer.email, customer.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  const details = page.getByRole('region', { name: 'Account Details' });
  await expect(details.getByText(customer.email)).toBeVisible();
  const button = details.getByRole('button', { name: 'Download my data' });
  await expect(button).toBeVisible();
  await screenshot(page, 'account-download-my-data');
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^parla-account-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  const data = JSON.parse(readFileSync(file, 'utf8')) as {
    format: string;
    account: { email: string; password_hash?: string };
    conversations: { avatar_name: string }[];
  };
  expect(data.format).toBe('parla-account-export');
  expect(data.account.email).toBe(customer.email);
  expect(data.account.password_hash).toBeUndefined();
  expect(data.conversations.map((c) => c.avatar_name)).toEqual(['Helper Bot']);
  await expect(button).toBeEnabled();
});
