// The portal's other lists on a large account (issue 21, decision 221): 450 online users, 450
// functions, a collection of 450 items and 450 more customers, seeded through the launcher's
// seed control. Each screen shows the first 200 rows and 'Load more', the next page follows, and
// the customers' search finds a customer far beyond the first page. Screenshots in
// test-results/screens/.
import { expect, type APIRequestContext } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, E2E_ADMIN, E2E_APP_KEY, signIn, type Customer } from './support/accounts';
import { apiToken } from './support/brain';
import { seedConversations, seedListRows } from './support/seed';
import { screenshot } from './support/screenshots';

const MANY = 450;
const PAGE = 200;

async function collection(request: APIRequestContext, customer: Customer, name: string): Promise<string> {
  const session = await apiToken(request, customer);
  const jwt = await request.get('/api/token/jwt', { headers: { authorization: `Bearer ${E2E_APP_KEY} ${session}` } });
  const res = await request.post('/kb/v1/collections', {
    headers: { authorization: `Bearer ${((await jwt.json()) as { jwtToken: string }).jwtToken}` },
    data: { name },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { id: string }).id;
}

test('online users, functions, knowledge items and customers show a page at a time on a large account', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const customer = await createCustomer(request, 'lists');
  // Seeded conversations never ping: the runtime ends those last seen over a minute ago at its
  // next tick, so all of them start within the last few seconds (they were spread over 450 s,
  // and a tick between two pages under load emptied the second page: a CI failure).
  const now = Date.now();
  await seedConversations(
    request,
    customer.email,
    Array.from({ length: MANY }, (_, i) => ({ avatarId: 'avatar-busy', avatarName: 'Busy', startedAt: now - i * 10, endedAt: null })),
  );
  await seedListRows(request, { kind: 'functions', email: customer.email, count: MANY });
  const collectionId = await collection(request, customer, 'Large collection');
  await seedListRows(request, { kind: 'knowledge-items', email: customer.email, collectionId, count: MANY });
  await seedListRows(request, { kind: 'customers', count: MANY });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);

  // My online users: 200 rows, then the next page.
  await page.goto('/react/myonlineusers');
  const users = page.getByRole('table', { name: 'Online users' }).getByRole('row');
  await expect(users).toHaveCount(PAGE + 1);
  await expect(page.getByText(`Showing ${PAGE} online users`)).toBeVisible();
  await screenshot(page, 'lists-large-01-my-online-users', { fullPage: false });
  await page.getByRole('button', { name: 'Load more online users' }).click();
  await expect(users).toHaveCount(2 * PAGE + 1);
  await page.getByRole('button', { name: 'Load more online users' }).click();
  await expect(users).toHaveCount(MANY + 1);
  await expect(page.getByRole('button', { name: 'Load more online users' })).toBeHidden();

  // Functions: the newest 200 in the side panel, the next page on demand, and one opens.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();
  const fns = page.getByRole('navigation', { name: 'Functions' }).getByRole('button', { name: /^seeded_\d+\.py, Pending$/ });
  await expect(fns).toHaveCount(PAGE);
  await expect(fns.first()).toHaveAccessibleName('seeded_0001.py, Pending');
  await page.getByRole('button', { name: 'Load more functions' }).click();
  await expect(fns).toHaveCount(2 * PAGE);
  await page.getByRole('button', { name: 'seeded_0350.py, Pending' }).click();
  await expect(page.getByLabel('File Name')).toHaveValue('seeded_0350.py');
  await screenshot(page, 'lists-large-02-functions', { fullPage: false });

  // Knowledge items of the collection.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge Base' }).click();
  await page.getByRole('button', { name: /Large collection/ }).click();
  const items = page.getByRole('table', { name: 'Knowledge items' }).getByRole('row');
  await expect(items).toHaveCount(PAGE + 1);
  await page.getByRole('button', { name: 'Load more items' }).click();
  await expect(items).toHaveCount(2 * PAGE + 1);
  await expect(page.getByText('Seeded item 0400', { exact: true })).toBeVisible();
  await screenshot(page, 'lists-large-03-knowledge-items', { fullPage: false });

  // The administrators: customers a page at a time, the search over all of them, online users.
  const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const admin = await adminContext.newPage();
  await signIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
  const customers = admin.getByRole('table', { name: 'Customers' }).getByRole('row');
  await expect(customers).toHaveCount(PAGE + 1);
  await admin.getByRole('button', { name: 'Load more customers' }).click();
  await expect(customers).toHaveCount(2 * PAGE + 1);
  await screenshot(admin, 'lists-large-04-customers', { fullPage: false });
  await admin.getByLabel('Search by name or email').fill('seeded-0450@');
  await expect(customers).toHaveCount(2);
  await expect(admin.getByRole('row').filter({ hasText: 'seeded-0450@example.com' })).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Load more customers' })).toBeHidden();
  await screenshot(admin, 'lists-large-05-customer-found', { fullPage: false });

  // The runtime ends seeded conversations that never ping once they are stale: fresh ones.
  await seedConversations(
    request,
    customer.email,
    Array.from({ length: MANY }, (_, i) => ({
      avatarId: 'avatar-busy',
      avatarName: 'Busy',
      startedAt: Date.now() - i * 10,
      endedAt: null,
    })),
  );
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Online Users' }).click();
  await expect(admin.getByRole('table', { name: 'Online users' }).getByRole('row')).toHaveCount(PAGE + 1);
  await expect(admin.getByRole('button', { name: 'Load more online users' })).toBeVisible();
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Function Review' }).click();
  const review = admin.getByRole('navigation', { name: 'Functions to review' }).getByRole('button');
  await expect(review.filter({ hasText: 'seeded_' }).first()).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Load more functions' })).toBeVisible();
  await expect(admin.getByText(/^\d+\+ awaiting review$/)).toBeVisible();
  await screenshot(admin, 'lists-large-06-function-review', { fullPage: false });
  await adminContext.close();
});

test('the billing report shows a page of avatars at a time, its total row covering every avatar', async ({ page, request }) => {
  test.setTimeout(180_000);
  const customer = await createCustomer(request, 'billingpages');
  const MIN = 60_000;
  const now = Date.now();
  const avatars = PAGE + 30;
  await seedConversations(
    request,
    customer.email,
    Array.from({ length: avatars }, (_, i) => ({
      avatarId: `avatar-${String(i).padStart(3, '0')}`,
      avatarName: `Avatar ${String(i).padStart(3, '0')}`,
      startedAt: now - 3 * 60 * MIN,
      endedAt: now - 3 * 60 * MIN + 2 * MIN,
    })),
  );
  await signIn(page, customer.email, customer.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  const table = page.getByRole('table', { name: 'Billing report' });
  const total = table.getByRole('row').last();
  await expect(total).toContainText('Total');
  await expect(total).toContainText(String(avatars));
  await expect(total).toContainText((avatars * 2).toLocaleString('en-US'));
  // Header, a page of rows, the total row.
  await expect(table.getByRole('row')).toHaveCount(PAGE + 2);
  // No count of every avatar (it would read every avatar, decision 500): the page says what it shows.
  await expect(page.getByText(`Showing ${PAGE} avatars; the total covers every avatar in the range.`)).toBeVisible();
  await expect(page.getByText('Rows are rounded; the total is the exact total, rounded once.')).toBeVisible();
  await screenshot(page, 'billing-first-page', { fullPage: false });
  await page.getByRole('button', { name: 'Load more rows' }).click();
  await expect(table.getByRole('row')).toHaveCount(avatars + 2);
  await expect(page.getByRole('button', { name: 'Load more rows' })).toHaveCount(0);
  await expect(page.getByText(/^Showing \d+ avatars/)).toHaveCount(0);
  await expect(table.getByRole('row').nth(avatars)).toContainText('Avatar 229');
});
