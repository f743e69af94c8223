// Issue 17, items 3, 4, 6 and 7: the faults a new user met screen by screen, each driven as a
// person would (role, label and the spec's texts) with a screenshot of the screen.
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './support/test';
import dayjs from 'dayjs';
import { createCustomer, E2E_ADMIN, signIn, waitForMail, type Customer } from './support/accounts';
import { customerWithAvatar, apiToken } from './support/brain';
import { E2E_APP_KEY } from './support/accounts';
import { screenshot as shot } from './support/screenshots';

async function signedIn(browser: Browser, c: { email: string; password: string }, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, c.email, c.password);
  await expect(page).not.toHaveURL(/\/react\/login/);
  return page;
}

async function openAccount(page: Page) {
  await page.goto('/react/account');
  await expect(page.getByRole('region', { name: 'Account Details' }).getByText('Customer ID')).toBeVisible();
}

test('the default encryption key cannot be deleted: its delete button is disabled and says why', async ({ browser, request }) => {
  const customer = await createCustomer(request, 'defaultkey');
  const page = await signedIn(browser, customer);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Encryption Keys' }).click();
  const list = page.getByRole('list', { name: 'Your encryption keys' });
  const del = list.getByRole('button', { name: 'Delete Default Key' });
  await expect(del).toBeDisabled();
  await del.locator('..').hover();
  await expect(page.getByRole('tooltip')).toHaveText('The default key cannot be deleted: avatars without a key of their own use it.');
  await shot(page, 'audit-default-key-tooltip');
});

test('a future end date is refused with a message and Search stays disabled until the date is valid', async ({ browser, request }) => {
  const customer = await createCustomer(request, 'future');
  const page = await signedIn(browser, customer);
  await openAccount(page);
  // Relative to the browser's today, whatever day the test runs.
  const future = dayjs().add(40, 'day');
  const end = page.getByRole('group', { name: 'End date' });
  await end.getByRole('spinbutton').first().click();
  await page.keyboard.type(future.format('MMDDYYYY'));
  await expect(page.getByText('End date cannot be later than today.')).toBeVisible();
  const search = page.getByRole('button', { name: 'Search' });
  await expect(search).toBeDisabled();
  await shot(page, 'audit-billing-future-date');

  await end.getByRole('spinbutton').first().click();
  await page.keyboard.type(dayjs().format('MMDDYYYY'));
  await expect(page.getByText('End date cannot be later than today.')).toHaveCount(0);
  await expect(search).toBeEnabled();
  await search.click();
  await expect(page.getByRole('table', { name: 'Billing report' })).toBeVisible();
});

test('a customer cancels a pending plan request and the administrators are told', async ({ browser, request }) => {
  const customer = await createCustomer(request, 'cancelplan');
  const page = await signedIn(browser, customer);
  await openAccount(page);
  const details = page.getByRole('region', { name: 'Account Details' });
  await page.getByRole('button', { name: 'Change Subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Subscription' });
  await dialog.getByRole('radio', { name: /PRO/ }).check();
  await dialog.getByRole('button', { name: 'Request Upgrade' }).click();
  await page.getByRole('dialog', { name: 'Request Sent' }).getByRole('button', { name: 'OK' }).click();
  await expect(details.getByText('PRO (REQUESTED)')).toBeVisible();

  await page.getByRole('button', { name: 'Change Subscription' }).click();
  await expect(dialog.getByRole('button', { name: 'Cancel request' })).toBeVisible();
  await shot(page, 'audit-plan-request-pending');
  await dialog.getByRole('button', { name: 'Cancel request' }).click();
  await expect(page.getByText('Your request for the PRO plan has been cancelled.')).toBeVisible();
  await expect(details.getByText('(REQUESTED)')).toHaveCount(0);
  await waitForMail(request, E2E_ADMIN.email, /cancelled/);

  // A new request is possible again.
  await page.getByRole('button', { name: 'Change Subscription' }).click();
  await dialog.getByRole('radio', { name: /STARTER/ }).check();
  await expect(dialog.getByRole('button', { name: 'Request Upgrade' })).toBeEnabled();
  await shot(page, 'audit-plan-request-cancelled');
});

test("an administrator's own Account page offers no subscription change", async ({ browser }) => {
  const page = await signedIn(browser, E2E_ADMIN);
  await openAccount(page);
  await expect(page.getByRole('region', { name: 'Account Details' }).getByText(E2E_ADMIN.email)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change Subscription' })).toHaveCount(0);
  await shot(page, 'audit-admin-account');
});

test('the Customer ID wraps only after a hyphen, never leaving a lone character on a line', async ({ browser, request }) => {
  const customer = await createCustomer(request, 'wrap');
  for (const width of [1440, 1000, 500]) {
    const page = await signedIn(browser, customer, { width, height: 900 });
    await openAccount(page);
    const value = page
      .getByRole('button', { name: 'Customer ID: show information' })
      .getByTestId('customer-id')
      .or(page.getByRole('button', { name: 'Customer ID: show information' }).locator('div').last());
    const lines = await value.first().evaluate((el) => {
      const text = el.firstChild as Text;
      const out: string[] = [];
      let top = Number.NaN;
      for (let i = 0; i < text.length; i++) {
        const r = document.createRange();
        r.setStart(text, i);
        r.setEnd(text, i + 1);
        const t = Math.round(r.getBoundingClientRect().top);
        if (t !== top) out.push('');
        top = t;
        out[out.length - 1] += text.data[i];
      }
      return out;
    });
    for (const line of lines.slice(0, -1)) expect(line.endsWith('-'), `${width}px: ${lines.join(' | ')}`).toBe(true);
    expect(lines.at(-1)!.length, `${width}px: ${lines.join(' | ')}`).toBeGreaterThan(4);
    await shot(page, `audit-customer-id-${width}`);
    await page.context().close();
  }
});

test('at 500 px no empty information box sits between Account Details and the Billing Report', async ({ browser, request }) => {
  const customer = await createCustomer(request, 'narrow');
  const page = await signedIn(browser, customer, { width: 500, height: 1000 });
  await openAccount(page);
  await expect(page.getByRole('table', { name: 'Billing report' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Field information' })).toBeHidden();
  const details = (await page.getByRole('region', { name: 'Account Details' }).boundingBox())!;
  const billing = (await page.getByRole('region', { name: 'Billing Report' }).boundingBox())!;
  expect(billing.y - (details.y + details.height)).toBeLessThan(40);
  await shot(page, 'audit-account-500');
  // A field's explanation still opens, right under the details.
  await page.getByRole('button', { name: 'Status: show information' }).click();
  const panel = page.getByRole('complementary', { name: 'Field information' });
  await expect(panel.getByRole('heading', { name: 'Status' })).toBeVisible();
  await shot(page, 'audit-account-500-info');
});

test('a full plan is said before an avatar is chosen, with the way to upgrade, and ADD AVATAR stays free to click', async ({
  browser,
  request,
}) => {
  const customer: Customer = await customerWithAvatar(request, 'limit', 'One');
  const token = await apiToken(request, customer);
  const cat = await request.get('/api/catalogue/avatars');
  const appearance = ((await cat.json()) as { avatars: { id: string; type: string }[] }).avatars[0]!;
  const res = await request.post('/api/avatar_v2/add', {
    headers: { authorization: `Bearer ${E2E_APP_KEY} ${token}` },
    multipart: { json: JSON.stringify({ name: 'Two', dhType: appearance.type, appearanceId: appearance.id }) },
  });
  expect(res.ok()).toBe(true);

  const full = 'Your FREE plan allows 2 avatars, and you have reached it. Upgrade your plan on the account page to create more.';
  for (const width of [1440, 1000]) {
    const page = await signedIn(browser, customer, { width, height: 900 });
    await expect(page).toHaveURL(/\/react\/avatars$/);
    // Before any choice: under the add button, and over the grid with the create button closed.
    await expect(page.getByRole('region', { name: 'Your avatars' }).getByText(full)).toBeVisible();
    await page.getByRole('button', { name: 'Add Avatar' }).click();
    await expect(page.getByRole('button', { name: 'PLAN FULL' })).toBeDisabled();
    await expect(page.getByText(full)).toHaveCount(2);
    await shot(page, `audit-plan-full-${width}`, { fullPage: false });
    await page.getByRole('button', { name: 'Add Avatar' }).click({ trial: true, timeout: 3000 });
    if (width === 1000) {
      await page.getByRole('region', { name: 'Your avatars' }).getByRole('link', { name: 'Upgrade' }).click();
      await expect(page).toHaveURL(/\/react\/account$/);
    }
    await page.context().close();
  }
});

test('a deleted function leaves the editor at once, and Function Review offers no Approve on an approved function', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const customer = await createCustomer(request, 'fndelete');
  const page = await signedIn(browser, customer);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();
  for (const _ of [1, 2]) {
    await page.getByRole('radio', { name: /Example Function Template/ }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Create Function' }).click();
    await expect(page.getByRole('heading', { name: 'Choose a Template' })).toBeVisible();
  }
  const cards = page.getByRole('navigation', { name: 'Functions' }).getByRole('button', { name: 'get_order_status.py, Pending' });
  await expect(cards).toHaveCount(2);

  // Approve one as an administrator; Approve is then no longer offered for it.
  const admin = await signedIn(browser, E2E_ADMIN);
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Function Review' }).click();
  await admin
    .getByRole('navigation', { name: 'Functions to review' })
    .getByRole('button', { name: /get_order_status\.py/ })
    .first()
    .click();
  await admin.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(admin.getByText('"get_order_status.py" approved.')).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toBeDisabled();
  await expect(admin.getByRole('button', { name: 'Reject', exact: true })).toBeEnabled();
  await shot(admin, 'audit-review-approved');
  await admin.context().close();

  await cards.first().click();
  await expect(page.getByRole('textbox', { name: 'Code' })).toContainText('def get_order_status');
  await page.getByRole('button', { name: 'Delete Function' }).click();
  await page.getByRole('dialog', { name: 'Delete function' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('The function has been deleted successfully!')).toBeVisible();
  // Without pressing Close: the editor is gone.
  await expect(page.getByRole('textbox', { name: 'Code' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Choose a Template' })).toBeVisible();
  await shot(page, 'audit-function-deleted');
});

test('the empty avatar list names the button as it reads before an appearance is chosen', async ({ browser, request }) => {
  const customer = await createCustomer(request, 'emptylist');
  const page = await signedIn(browser, customer);
  await expect(page.getByText('No avatars yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'START' })).toBeVisible();
  const hint = page.getByRole('region', { name: 'Your avatars' }).getByRole('alert').or(page.getByText('No avatars yet').locator('..'));
  await expect(hint.first()).toContainText('START');
  await shot(page, 'audit-empty-avatar-list');
});

test('the selected avatar card shows every button whole, none over another, from a wide window to a narrow one', async ({
  browser,
  request,
}) => {
  const customer = await customerWithAvatar(request, 'cardbuttons', 'Beacon');
  for (const width of [1440, 1024, 800]) {
    const page = await signedIn(browser, customer, { width, height: 900 });
    const card = page.getByRole('article', { name: 'Avatar Beacon' });
    await card.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(card.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
    const boxes = await card.locator('.MuiCardActions-root > *').evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        // A label wider than its button spills over its neighbour.
        return { text: el.textContent ?? '', x: r.x, y: r.y, w: r.width, h: r.height, spills: el.scrollWidth > el.clientWidth + 1 };
      }),
    );
    expect(boxes.map((b) => b.text)).toEqual(['Save', 'Close', 'Connect', 'Conversations', 'Insight', 'Delete']);
    for (const b of boxes) expect(b.spills, `${width} px: "${b.text}" fits its button`).toBe(false);
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        const apart = a.x + a.w <= b.x + 0.5 || b.x + b.w <= a.x + 0.5 || a.y + a.h <= b.y + 0.5 || b.y + b.h <= a.y + 0.5;
        expect(apart, `${width} px: "${a.text}" and "${b.text}" do not overlap`).toBe(true);
      }
    await card.screenshot({ path: `test-results/screens/audit-card-buttons-${width}.png` });
    await page.context().close();
  }
});
