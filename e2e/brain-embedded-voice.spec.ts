// Issue 35 item 2 and issue 39 item 6 in the Brain tab, on a server with no speech server and no
// keys (the embedded voice on): an English avatar's "Default" voice list is the built-in voices,
// the one fitting its face chosen, each with a "Play sample" of real audio from the server's
// embedded voice; what is picked is saved and spoken; a German avatar's list says plainly that the
// built-in voices speak English only and the browser's voice is used; Composite mode's "Default"
// list is not empty. Screenshots: test-results/screens/brain-voice-*.png.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { choose, customerWithAvatar, editTab, openEditor, saveAvatar } from './support/brain';
import { screenshot } from './support/screenshots';

const tts = (page: Page) => page.getByRole('region', { name: 'Text to Speech' });
const voice = (page: Page) => tts(page).getByRole('combobox', { name: 'Voice' });

async function optionsOf(page: Page): Promise<string[]> {
  await voice(page).click();
  const names = await page.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  return names;
}

test('an English avatar picks a built-in voice, hears its sample from the server, and saves it', async ({ browser, request }) => {
  test.setTimeout(120_000);
  // The catalogue's first face (Amara) is a woman's: the female built-in voice is chosen for her.
  const customer = await customerWithAvatar(request, 'brain-voice', 'Amara');
  const page = await openEditor(browser, customer, 'Amara', 'Brain');
  await expect(voice(page)).toHaveText('Sally (US English, female), built in (en-US) Female');
  expect(await optionsOf(page)).toEqual([
    'Sally (US English, female), built in (en-US) Female',
    'Ross (US English, male), built in (en-US) Male',
    'Alan (Scottish English, male), built in (en-GB) Male',
    'Kal (US English, male, diphone), built in (en-US) Male',
  ]);

  await choose(page, 'Voice', /^Ross/);
  const sample = tts(page).getByRole('button', { name: 'Play sample of Ross (US English, male)' });
  await sample.click();
  // Real audio from the server's embedded voice, playing in the page.
  await expect(tts(page).getByRole('button', { name: 'Stop the sample of Ross (US English, male)' })).toBeVisible({ timeout: 30_000 });
  const audio = page.getByTestId('voice-sample-audio');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.2);
  expect(await audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(2);
  await screenshot(page, 'brain-voice-play-sample');
  // It ends by itself and the button says "Play sample" again.
  await expect(sample).toBeVisible({ timeout: 15_000 });

  await saveAvatar(page, 'Amara');
  await expect(page.getByText('Avatar updated successfully.')).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await editTab(page, 'Amara', 'Brain');
  await expect(voice(page)).toHaveText('Ross (US English, male), built in (en-US) Male');
});

test('a German avatar is told plainly that the built-in voices speak English only, and is offered the browser voices', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const customer = await customerWithAvatar(request, 'brain-voice-de', 'Greta');
  const page = await openEditor(browser, customer, 'Greta', 'Brain');
  await page.getByRole('region', { name: 'Speech to Text' }).getByRole('combobox', { name: 'Language', exact: true }).click();
  await page.getByRole('option', { name: /^German \(Germany\)/ }).click();
  await expect(
    tts(page).getByText(/^The built-in voices speak English only: for German \(Germany\), visitors hear their browser's voice/),
  ).toBeVisible();
  expect((await optionsOf(page)).some((o) => o.includes('built in'))).toBe(false);
  await expect(tts(page).getByRole('button', { name: /Play sample/ })).toHaveCount(0);
  await screenshot(page, 'brain-voice-german-note');
});

test("Composite mode's Default voice list shows the built-in voices (it was empty)", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const customer = await customerWithAvatar(request, 'brain-voice-comp', 'Cora');
  const page = await openEditor(browser, customer, 'Cora', 'Brain');
  await page.getByRole('radio', { name: 'Composite (cascading)' }).check();
  await expect(tts(page).getByRole('combobox', { name: 'Text to Speech provider' })).toBeVisible();
  await expect(voice(page)).toHaveText('Sally (US English, female), built in (en-US) Female');
  expect(await optionsOf(page)).toContain('Sally (US English, female), built in (en-US) Female');
  await screenshot(page, 'brain-voice-composite');
  await expect(tts(page).getByRole('button', { name: 'Play sample of Sally (US English, female)' })).toBeVisible();
});
