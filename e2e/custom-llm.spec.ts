// A custom OpenAI-compatible base URL (docs/decisions/302-custom-llm-base-url.md): in Composite
// mode the customer picks "Custom (OpenAI-compatible)", types the address of a self-hosted model
// server (a loopback stand-in the server's allow-list names), gets its /models in the model select
// through the server, saves, reloads and sees it; the avatar then answers in the player with
// that model. Screenshots go to test-results/screens/.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { CUSTOM_LLM_MESSAGES } from '../packages/shared/src/schemas/custom-llm';
import { E2E_APP_KEY } from './support/accounts';
import { apiToken, choose, customerWithAvatar, editTab, openEditor, saveAvatar } from './support/brain';
import { screenshot } from './support/screenshots';
import { CUSTOM_LLM_BASE_URL, CUSTOM_LLM_KEY } from './support/stand-ins/custom-llm';

const combo = (page: Page, name: string | RegExp) => page.getByRole('combobox', { name });

test('a custom OpenAI-compatible base URL: its models listed, saved, reloaded, and the avatar answers with the model', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const customer = await customerWithAvatar(request, 'customllm', 'Harbor');
  const page = await openEditor(browser, customer, 'Harbor', 'Brain');
  const engine = page.getByRole('region', { name: 'Avatar Engine' });

  await page.getByRole('radio', { name: 'Composite (cascading)' }).check();
  await choose(page, 'Avatar Engine', 'Large Language Model');
  await choose(page, 'Base URL', 'Custom (OpenAI-compatible)');
  const url = engine.getByRole('textbox', { name: /Custom base URL/ });
  await url.fill('llm.example.com/v1');
  await url.blur();
  await expect(engine.getByText(CUSTOM_LLM_MESSAGES.baseUrlInvalid)).toBeVisible();
  await url.fill(CUSTOM_LLM_BASE_URL);
  await expect(engine.getByText(CUSTOM_LLM_MESSAGES.baseUrlInvalid)).toBeHidden();
  await engine.getByLabel(/^API Key/).fill(CUSTOM_LLM_KEY);
  await combo(page, 'Model').first().click();
  await page.getByRole('option', { name: 'stand-in-model' }).click();
  await engine.getByLabel('Avatar Memory').fill('We rent sail boats in the harbour.');
  await screenshot(page, 'custom-llm-01-form');

  await saveAvatar(page, 'Harbor');
  await expect(page.getByRole('dialog', { name: 'Save Avatar' })).toBeHidden();
  await expect(page.getByRole('article', { name: 'Avatar Harbor' })).toContainText('Large Language Model');

  // Reloaded: the custom choice, its address, the key masked, the model.
  await page.reload();
  await editTab(page, 'Harbor', 'Brain');
  await expect(combo(page, 'Base URL')).toHaveText(/Custom \(OpenAI-compatible\)/);
  await expect(engine.getByRole('textbox', { name: /Custom base URL/ })).toHaveValue(CUSTOM_LLM_BASE_URL);
  await expect(engine.getByLabel(/^API Key/)).toHaveValue(`••••${CUSTOM_LLM_KEY.slice(-4)}`);
  await expect(combo(page, 'Model').first()).toHaveText('stand-in-model');
  await screenshot(page, 'custom-llm-02-reloaded');

  // The avatar answers in the player, with that model.
  const token = await apiToken(request, customer);
  const list = await request.get('/api/avatar/list', { headers: { authorization: `Bearer ${E2E_APP_KEY} ${token}` } });
  const harbor = ((await list.json()) as { agents: { id: string; name: string; token: string }[] }).agents.find(
    (a) => a.name === 'Harbor',
  )!;
  const visitor = await browser.newPage();
  await visitor.goto(`/avatar/${harbor.id}?token=${harbor.token}&connect=true`);
  await expect(visitor.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await visitor.getByLabel('Message').fill('Can I rent a boat tomorrow?');
  await visitor.getByLabel('Message').press('Enter');
  await expect(visitor.getByRole('log', { name: 'Chat history' }).locator('.msg.assistant').last()).toHaveText(
    '[stand-in-model] You said: Can I rent a boat tomorrow?',
    { timeout: 20_000 },
  );
  await screenshot(visitor, 'custom-llm-03-player');
  await visitor.close();
});
