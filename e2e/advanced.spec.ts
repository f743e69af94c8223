// The ADVANCED tab (spec 3 §2, §4, §5, §9): the defaults, the Unlimited checkboxes, the spec's
// messages for invalid values blocking the save ('Invalid advance tab form'), and a valid save
// read back after a reload. Screenshots go to test-results/screens/.
import { expect } from '@playwright/test';
import { test } from './support/test';
import { customerWithAvatar, editTab, openEditor, saveAvatar } from './support/brain';
import { screenshot } from './support/screenshots';

test('invalid advanced values show the spec messages and block saving; valid ones are saved', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const customer = await customerWithAvatar(request, 'advanced', 'Atlas');
  const page = await openEditor(browser, customer, 'Atlas', 'ADVANCED');

  // Defaults of spec 3 §9.
  const session = page.getByLabel('Daily Limit Per Session (seconds)');
  const sessionUnlimited = page.getByRole('checkbox', { name: 'Daily Limit Per Session unlimited' });
  await expect(sessionUnlimited).toBeChecked();
  await expect(page.getByLabel('Idle timeout (seconds)')).toHaveValue('300');
  await expect(page.getByLabel('Idle timeout (seconds)')).toBeDisabled();
  await expect(page.getByLabel('Interruption duration (s)')).toHaveValue('0.5');
  await expect(page.getByLabel('Min interruption words')).toHaveValue('0');
  await expect(page.getByLabel('Min endpointing delay (s)')).toHaveValue('0.5');
  await expect(page.getByLabel('Min speech duration (s)')).toHaveValue('0.05');
  await expect(page.getByLabel('Min silence duration (s)')).toHaveValue('0.55');
  await expect(page.getByLabel('Prefix padding duration (s)')).toHaveValue('0.5');
  await expect(page.getByLabel('Max buffered speech (s)')).toHaveValue('60');
  await expect(page.getByLabel('Activation threshold')).toHaveValue('0.5');
  await screenshot(page, 'advanced-01-defaults');

  // Unlimited: unticking restores 600 the first time, ticking sets -1, unticking restores the value before.
  await sessionUnlimited.uncheck();
  await expect(session).toHaveValue('600');
  await session.fill('900');
  await sessionUnlimited.check();
  await expect(session).toHaveValue('');
  await sessionUnlimited.uncheck();
  await expect(session).toHaveValue('900');

  // Invalid values: the spec's messages as they are typed.
  await session.fill('0');
  await expect(page.getByText('Daily Limit Per Session must be greater than 0 or -1 for unlimited')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Daily Limit Per IP unlimited' }).uncheck();
  await page.getByLabel('Daily Limit Per IP (seconds)').fill('');
  await expect(page.getByText('Daily Limit Per IP is required')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Demo duration limit unlimited' }).uncheck();
  await page.getByLabel('Demo duration limit (seconds)').fill('-5');
  await expect(page.getByText('Demo duration limit must be greater than 0 or -1 for unlimited')).toBeVisible();
  await page.getByLabel('Wake Up Message').fill('');
  await expect(page.getByText('Wake Up Message is required')).toBeVisible();
  await page.getByLabel('Min interruption words').fill('many');
  await expect(page.getByText('Must be a number')).toBeVisible();
  await page.getByLabel('Activation threshold').fill('1.5');
  await expect(page.getByText('Must be between 0.0 and 1.0')).toBeVisible();
  await page.getByLabel('Min speech duration (s)').fill('-1');
  await expect(page.getByText('Must be a positive number')).toBeVisible();
  await page.getByLabel('Billing URL').fill('not a url');
  await expect(page.getByText('Not a valid URL')).toBeVisible();

  // Saving is blocked (no confirmation is offered); every field is checked, the header that a
  // billing URL needs too.
  await page.getByRole('article', { name: 'Avatar Atlas' }).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Invalid advance tab form')).toBeVisible();
  await expect(page.getByText('Some fields are invalid. Please correct them before submitting.')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Save Avatar' })).toHaveCount(0);
  await expect(page.getByText('Billing Authorization Header is required')).toBeVisible();
  await expect(page.getByText('Avatar updated successfully.')).toHaveCount(0);
  await screenshot(page, 'advanced-02-invalid');

  // Fixed values save and come back after a reload.
  await session.fill('1200');
  await page.getByLabel('Daily Limit Per IP (seconds)').fill('3600');
  await page.getByLabel('Demo duration limit (seconds)').fill('300');
  await page.getByLabel('Wake Up Message').fill('Welcome to Atlas Travel!');
  await page.getByLabel('Min interruption words').fill('2');
  await page.getByLabel('Activation threshold').fill('0.6');
  await page.getByLabel('Min speech duration (s)').fill('0.1');
  await page.getByLabel('Billing URL').fill('');
  await expect(page.getByText('Not a valid URL')).toHaveCount(0);
  await saveAvatar(page, 'Atlas');
  await expect(page.getByText('Avatar updated successfully.')).toBeVisible();

  await page.reload();
  await editTab(page, 'Atlas', 'ADVANCED');
  await expect(page.getByLabel('Daily Limit Per Session (seconds)')).toHaveValue('1200');
  await expect(page.getByLabel('Daily Limit Per IP (seconds)')).toHaveValue('3600');
  await expect(page.getByLabel('Demo duration limit (seconds)')).toHaveValue('300');
  await expect(page.getByLabel('Wake Up Message')).toHaveValue('Welcome to Atlas Travel!');
  await expect(page.getByLabel('Min interruption words')).toHaveValue('2');
  await expect(page.getByLabel('Activation threshold')).toHaveValue('0.6');
  await page.getByLabel('Min silence duration (s)').click();
  await expect(page.getByRole('complementary', { name: 'Field information' })).toContainText('Silence needed to end speech.');
  await screenshot(page, 'advanced-03-saved');
});

test('a turn-taking preset sets the interruption and voice-activity numbers together, which stay editable', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const customer = await customerWithAvatar(request, 'presets', 'Iris');
  const page = await openEditor(browser, customer, 'Iris', 'ADVANCED');
  const presets = page.getByRole('group', { name: 'Turn-taking preset' });
  await expect(presets.getByRole('button', { name: 'Balanced' })).toHaveAttribute('aria-pressed', 'true');

  await presets.getByRole('button', { name: 'Patient listener' }).click();
  await expect(page.getByLabel('Min endpointing delay (s)')).toHaveValue('1');
  await expect(page.getByLabel('Max endpointing delay (s)')).toHaveValue('5');
  await expect(page.getByLabel('Interruption duration (s)')).toHaveValue('0.8');
  await expect(page.getByLabel('Min interruption words')).toHaveValue('2');
  await expect(page.getByText('ignores short sounds like "uh-huh"', { exact: false })).toBeVisible();
  await screenshot(page, 'advanced-04-patient-preset');

  // A number changed by hand: the choice reads Custom; the change is kept through a save.
  await page.getByLabel('Min silence duration (s)').fill('0.9');
  await expect(page.getByText('Custom: the numbers below match no preset.', { exact: false })).toBeVisible();
  await saveAvatar(page, 'Iris');
  await expect(page.getByText('Avatar updated successfully.')).toBeVisible();
  await page.reload();
  await editTab(page, 'Iris', 'ADVANCED');
  await expect(page.getByLabel('Min silence duration (s)')).toHaveValue('0.9');
  await expect(page.getByLabel('Min endpointing delay (s)')).toHaveValue('1');
  await page.getByRole('group', { name: 'Turn-taking preset' }).getByRole('button', { name: 'Snappy' }).click();
  await expect(page.getByLabel('Min silence duration (s)')).toHaveValue('0.35');
});
