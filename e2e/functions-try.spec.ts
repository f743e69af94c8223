// Functions tried before review (issue 39 item 7): the customer types sample arguments in the
// editor's Try it, runs the example function in the sandbox and sees its result and an error;
// once saved, the function's screen lists its live calls (one seeded through the call log's
// repository: a live call needs a realtime avatar and a model, which the API tests drive).
import { expect } from '@playwright/test';
import { test } from './support/test';
import { screenshot as shot } from './support/screenshots';
import { signIn, E2E_APP_KEY } from './support/accounts';
import { apiToken, customerWithAvatar } from './support/brain';
import { seedFunctionCall } from './support/seed';

test('a function is tried with sample arguments before it is submitted, and its live calls are listed', async ({ page, request }) => {
  test.setTimeout(180_000);
  const customer = await customerWithAvatar(request, 'functions-try', 'Desk');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();
  await page.getByRole('radio', { name: /Example Function Template/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Try it' })).toBeVisible();

  await page.getByLabel('Arguments (JSON)').fill('{"order_id": "A-1042"}');
  await page.getByRole('button', { name: 'Run' }).click();
  const outcome = page.getByRole('status').filter({ hasText: /Result \(\d+ ms\)/ });
  await expect(outcome).toBeVisible({ timeout: 90_000 });
  await expect(outcome).toContainText('"status": "shipped"');
  await shot(page, 'functions-try-result');

  // Arguments that are not JSON are refused with the reason; a wrong argument is the function's error.
  await page.getByLabel('Arguments (JSON)').fill('{"order_id": ');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('Arguments must be a JSON object, for example {"order_id": "A-1"}.')).toBeVisible();
  await page.getByLabel('Arguments (JSON)').fill('{"order": "A-1042"}');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Error \(\d+ ms\)/ })).toContainText("unexpected keyword argument 'order'", {
    timeout: 90_000,
  });

  await page.getByRole('button', { name: 'Create Function' }).click();
  await expect(page.getByText('The function has been created successfully!')).toBeVisible();

  // A live call of the avatar, then the function's screen lists it.
  const auth = { authorization: `Bearer ${E2E_APP_KEY} ${await apiToken(request, customer)}` };
  const fns = (await (await request.get('/api/functions', { headers: auth })).json()) as {
    functions: { id: string; name: string; template: boolean }[];
  };
  const fn = fns.functions.find((f) => f.name === 'get_order_status.py' && !f.template)!;
  const avatars = (await (await request.get('/api/avatar/list', { headers: auth })).json()) as { agents: { id: string; name: string }[] };
  const desk = avatars.agents.find((a) => a.name === 'Desk')!;
  await seedFunctionCall(request, {
    functionId: fn.id,
    avatarId: desk.id,
    ok: true,
    durationMs: 41,
    excerpt: '{"status": "shipped", "delivery": "2 days"}',
  });
  await page.getByRole('navigation', { name: 'Functions' }).getByRole('button', { name: 'get_order_status.py, Pending' }).click();
  const calls = page.getByRole('table', { name: 'Calls' });
  await expect(calls).toBeVisible();
  await expect(calls.getByRole('row').nth(1)).toContainText('Desk');
  await expect(calls.getByRole('row').nth(1)).toContainText('41 ms');
  await expect(calls.getByRole('row').nth(1)).toContainText('OK{"status": "shipped"');
  await calls.scrollIntoViewIfNeeded();
  await shot(page, 'functions-call-log');
});
