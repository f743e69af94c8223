// The Brain tab's TEST BRAIN (issue 39 item 3): the customer tries the brain as the form holds
// it, before saving, and reads what happened in plain words: a REST endpoint on a private
// address is refused (it used to save fine and fail at the visitor's first word), a refused key
// says so, and a working model shows its answer. Screenshots go to test-results/screens/.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { DEEPGRAM_HEARD } from '../apps/server/test/stand-ins/deepgram';
import { STAND_IN_KEYS } from '../apps/server/test/stand-ins/keys';
import { BRAIN_TEST_MESSAGES as M, HEARING_TEST_SENTENCE } from '../packages/shared/src/schemas/brain-test';
import { E2E_APP_KEY } from './support/accounts';
import { apiToken, choose, customerWithAvatar, editTab, openEditor, saveAvatar } from './support/brain';
import { screenshot } from './support/screenshots';
import { CUSTOM_LLM_BASE_URL, CUSTOM_LLM_KEY } from './support/stand-ins/custom-llm';

const testButton = (page: Page) => page.getByRole('button', { name: 'Test brain' });
const section = (page: Page, name: string) => page.getByRole('region', { name });

test('a customer tests an unsaved brain: a private REST address refused, a wrong key, then a model that answers', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const customer = await customerWithAvatar(request, 'braintest', 'Tester');
  const page = await openEditor(browser, customer, 'Tester', 'Brain');
  const engine = page.getByRole('region', { name: 'Avatar Engine' });

  // Echo: nothing to test.
  await testButton(page).click();
  await expect(page.getByText(M.echo)).toBeVisible();

  // A REST endpoint on a private address: refused, said before any visitor meets it.
  await choose(page, 'Avatar Engine', 'REST Endpoint');
  await engine.getByLabel(/^REST Endpoint URL/).fill('http://10.20.30.40/bot');
  await engine.getByLabel(/^REST API Key/).fill('rest-key-0123456789');
  await engine.getByLabel(/^Avatar Memory/).fill('We rent bicycles.');
  await testButton(page).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The address was refused' })).toContainText(
    'Only public internet addresses can be reached from Parla.',
  );
  await screenshot(page, 'brain-test-01-refused-address');
  // Saved anyway: the save works, and the customer is warned at once rather than at a visitor's first word.
  await saveAvatar(page, 'Tester');
  await expect(page.getByText(/^Saved, but the test of this brain failed: The address was refused/)).toBeVisible({ timeout: 30_000 });
  await screenshot(page, 'brain-test-02-warned-at-save');

  // A visitor comes anyway: they hear only that it could not start; the owner's card says why.
  const token = await apiToken(request, customer);
  const list = await request.get('/api/avatar/list', { headers: { authorization: `Bearer ${E2E_APP_KEY} ${token}` } });
  const tester = ((await list.json()) as { agents: { id: string; name: string; token: string }[] }).agents.find(
    (a) => a.name === 'Tester',
  )!;
  const visitor = await browser.newPage();
  await visitor.goto(`/avatar/${tester.id}?token=${tester.token}&connect=true`);
  await expect(visitor.getByText('The avatar could not start the conversation. Please try again later.')).toBeVisible({ timeout: 30_000 });
  await expect(visitor.getByText(/address was refused/)).toHaveCount(0);
  await visitor.close();
  await page.reload();
  await expect(page.getByRole('article', { name: 'Avatar Tester' })).toContainText(
    /The last conversation could not start \(.+\): The address was refused/,
  );
  await screenshot(page, 'brain-test-02b-card-says-why');
  await editTab(page, 'Tester', 'Brain');

  // A language model (Composite mode): a wrong key, then the right one and its answer.
  await page.getByRole('radio', { name: 'Composite (cascading)' }).check();
  await choose(page, 'Avatar Engine', 'Large Language Model');
  await choose(page, 'Base URL', 'Custom (OpenAI-compatible)');
  await engine.getByRole('textbox', { name: /Custom base URL/ }).fill(CUSTOM_LLM_BASE_URL);
  await engine.getByLabel(/^API Key/).fill(CUSTOM_LLM_KEY);
  await page.getByRole('combobox', { name: 'Model' }).first().click();
  await page.getByRole('option', { name: 'stand-in-model' }).click();
  await engine.getByLabel('Avatar Memory').fill('We rent sail boats.');
  await engine.getByLabel(/^API Key/).fill('sk-wrong-key-000000000000');
  await testButton(page).click();
  await expect(page.getByText(M.keyRefused(401), { exact: false })).toBeVisible({ timeout: 30_000 });
  await engine.getByLabel(/^API Key/).fill(CUSTOM_LLM_KEY);
  await testButton(page).click();
  // The embedded voice speaks the answer too (no speech server here): M.spokeToo.
  await expect(page.getByText(M.spokeToo, { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^Answer: “.+”$/)).toBeVisible();
  await screenshot(page, 'brain-test-03-answered');

  // The server's speech recognition (Deepgram): the built-in voice says a sentence, Deepgram's
  // answer is shown; a wrong key is said as the brain's would be.
  const stt = section(page, 'Speech to Text');
  await choose(page, 'Speech to Text provider', 'Deepgram');
  await stt.getByLabel(/^API Key/).fill(STAND_IN_KEYS.deepgram);
  await testButton(page).click();
  const result = page.getByRole('alert').filter({ hasText: M.heard });
  await expect(result).toContainText(`Said: “${HEARING_TEST_SENTENCE}” Heard: “${DEEPGRAM_HEARD}”`, { timeout: 30_000 });
  await screenshot(page, 'brain-test-04-heard');
  await stt.getByLabel(/^API Key/).fill('dg-wrong-key-0000000000');
  await testButton(page).click();
  await expect(page.getByRole('alert').filter({ hasText: M.hearingFailed(M.keyRefused(401)) })).toBeVisible({ timeout: 30_000 });
});
