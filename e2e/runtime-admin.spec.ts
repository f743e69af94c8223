// Administrators watch the running system: Online Users and Connected VPS. A second pipeline
// node process registers and shows as AVAILABLE; VPS Details; deleting it disconnects it (the
// dialog closes 3 s after success); on mobile the list is cards.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, E2E_ADMIN, signIn } from './support/accounts';
import { E2E_PORT } from './support/ports';
import { E2E_NODE_SECRET } from './support/stand-ins/runtime';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let node: ChildProcess | null = null;

test.afterAll(() => {
  if (node && node.exitCode === null) node.kill('SIGKILL');
});

test('an administrator sees online users and the connected VPS, opens details and deletes a node', async ({ page }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/react\/onlineusers$/);
  await expect(page.getByRole('heading', { name: 'Online Users' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'User Name' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Session Id' })).toBeVisible();
  await page.getByRole('button', { name: 'Refresh online users' }).click();
  await page.screenshot({ path: 'test-results/screens/online-users-admin.png' });

  node = spawn(
    process.execPath,
    [
      'scripts/run-ts.mjs',
      'apps/server/src/node-main.ts',
      '--server',
      `http://127.0.0.1:${E2E_PORT}`,
      '--name',
      'e2e-worker',
      '--capacity',
      '4',
    ],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_SECRET: E2E_NODE_SECRET },
      stdio: 'ignore',
    },
  );
  const exited = new Promise<number | null>((resolve) => node!.once('exit', (code) => resolve(code)));

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'VPS Status' }).click();
  await expect(page).toHaveURL(/\/react\/vpsstatus$/);
  await expect(page.getByRole('heading', { name: 'Connected VPS' })).toBeVisible();
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh VPS list' }).click();
    await expect(page.getByRole('row', { name: /e2e-worker/ })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const row = page.getByRole('row', { name: /e2e-worker/ });
  const chip = row.getByText('AVAILABLE');
  await expect(chip).toBeVisible();
  expect(await chip.evaluate((el) => getComputedStyle(el.closest('.MuiChip-root')!).backgroundColor)).toBe('rgb(21, 128, 61)');
  await page.screenshot({ path: 'test-results/screens/vps-status.png' });

  await row.getByRole('button', { name: /Details of VPS/ }).click();
  const details = page.getByRole('dialog', { name: 'VPS Details' });
  await expect(details.getByRole('cell', { name: 'e2e-worker' })).toBeVisible();
  await details.getByRole('button', { name: 'Refresh VPS details' }).click();
  await expect(details.getByRole('cell', { name: '127.0.0.1' }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/vps-details.png' });
  await details.getByRole('button', { name: 'Close' }).click();

  await row.getByRole('button', { name: 'Delete VPS e2e-worker' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete VPS' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByText('Deleted Successfully!')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/vps-deleted.png' });
  await expect(confirm).toBeHidden({ timeout: 6000 });
  expect(await exited).toBe(0);
  await expect(page.getByRole('row', { name: /e2e-worker/ })).toBeHidden();
});

test('on a phone the connected VPS are cards with a green AVAILABLE', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/react\/onlineusers$/);
  await page.goto('/react/vpsstatus');
  await expect(page.getByRole('heading', { name: 'Connected VPS' })).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByText('AVAILABLE').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/vps-status-mobile.png' });
});

test('a customer sees the online users of their own avatars and the response times', async ({ page, request }) => {
  const customer = await createCustomer(request, 'myusers');
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.goto('/react/myonlineusers');
  await expect(page.getByRole('heading', { name: 'Online Users' })).toBeVisible();
  await expect(page.getByText('People talking to your avatars right now.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Online users' }).getByText('No one is online right now.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Response times' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Response times' }).getByText('No conversations in the last 30 days.')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/my-online-users-empty.png' });
});
