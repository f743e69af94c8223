// Issue 34 item 2: an administrator sees when mail delivery keeps failing (decision 012). The
// failed mail is seeded through the outbox repository (the e2e SMTP capture accepts every mail);
// the Connected VPS screen shows one line with the count and the last error, and nothing once
// the failure is gone.
import { expect } from '@playwright/test';
import { test } from './support/test';
import { E2E_ADMIN, signIn } from './support/accounts';
import { seedFailedMail } from './support/seed';

const TO = 'unreachable-mailbox@example.com';

test.afterEach(async ({ request }) => {
  await seedFailedMail(request, { to: TO });
});

test('an administrator sees that mail delivery is failing on the VPS status screen', async ({ page, request }) => {
  await seedFailedMail(request, { to: TO, error: 'Mail delivery failed after 8 attempts: Greeting never received' });
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'VPS Status' }).click();
  await expect(page.getByRole('heading', { name: 'Connected VPS' })).toBeVisible();
  const alert = page.getByRole('alert').filter({ hasText: 'Mail delivery is failing' });
  await expect(alert).toContainText('1 not delivered in the last 24 hours');
  await expect(alert).toContainText('last error: Mail delivery failed after 8 attempts: Greeting never received');
  await page.screenshot({ path: 'test-results/screens/vps-status-mail-failing.png' });

  await seedFailedMail(request, { to: TO });
  await page.getByRole('button', { name: 'Refresh VPS list' }).click();
  await expect(page.getByText('Mail delivery is failing')).toHaveCount(0);
});
