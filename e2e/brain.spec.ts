// The Brain tab (spec 3) against the provider stand-ins: an LLM avatar in Composite mode on the
// OpenAI-compatible stand-in (its /models in the model select), Deepgram speech-to-text and Azure
// text-to-speech, saved and reloaded with the keys masked; mode switches and their resets; the
// ElevenLabs agent check in each of its states. Screenshots go to test-results/screens/.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { STAND_IN_AGENTS, STAND_IN_KEYS } from '../apps/server/test/stand-ins/keys';
import { choose, customerWithAvatar, editTab, openEditor, saveAvatar } from './support/brain';
import { screenshot } from './support/screenshots';

const masked = (key: string) => `••••${key.slice(-4)}`;
const combo = (page: Page, name: string | RegExp) => page.getByRole('combobox', { name });
const section = (page: Page, name: string) => page.getByRole('region', { name });

test('an LLM avatar in Composite mode with Deepgram and Azure, saved, reloaded and switched between modes', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const customer = await customerWithAvatar(request, 'brain', 'Sage');
  const page = await openEditor(browser, customer, 'Sage', 'Brain');

  // A new avatar: Simple mode ('currently set'), echo engine.
  await expect(page.getByRole('radio', { name: /Simple/ })).toBeChecked();
  await expect(page.getByText('currently set')).toBeVisible();
  await expect(combo(page, 'Avatar Engine')).toHaveText('Echo');
  await screenshot(page, 'brain-01-new-avatar');

  // Composite, the LLM engine: the Groq base URL first, then OpenAI (the stand-in).
  await page.getByRole('radio', { name: 'Composite (cascading)' }).check();
  await choose(page, 'Avatar Engine', 'Large Language Model');
  await expect(combo(page, 'Base URL')).toContainText('Groq');
  await choose(page, 'Base URL', /^OpenAI/);
  await section(page, 'Avatar Engine')
    .getByLabel(/^API Key/)
    .fill(STAND_IN_KEYS.openai);
  await combo(page, 'Model').click();
  await expect(page.getByRole('option', { name: 'gpt-4o-mini' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'o4-mini' })).toBeVisible();
  await page.getByRole('option', { name: 'gpt-4o-mini' }).click();
  await expect(page.getByRole('radiogroup', { name: 'Interaction type' })).toBeVisible();
  await page.getByLabel('Avatar Memory').first().fill('We rent bicycles in Utrecht.');

  // Deepgram: the key is checked and the models' languages are offered.
  const stt = section(page, 'Speech to Text');
  await choose(page, 'Speech to Text provider', 'Deepgram');
  await expect(combo(page, 'Model').nth(1)).toHaveText('nova-3-general');
  await stt.getByLabel(/^API Key/).fill('dg-wrong-key-000');
  await expect(stt.getByText('Invalid API Key')).toBeVisible();
  await stt.getByLabel(/^API Key/).fill(STAND_IN_KEYS.deepgram);
  await expect(stt.getByRole('combobox', { name: 'Language', exact: true })).toHaveText('Multilingual (multi)');
  await stt.getByRole('combobox', { name: 'Model', exact: true }).click();
  await expect(page.getByRole('option', { name: 'flux-general-en' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Azure voices of a region, read with the subscription key.
  const tts = section(page, 'Text to Speech');
  await choose(page, 'Text to Speech provider', 'Azure');
  await expect(tts.getByLabel('Speech speed')).toHaveValue('0');
  await tts.getByLabel(/^Subscription Key/).fill(STAND_IN_KEYS.azure);
  await choose(page, 'Region', 'westeurope');
  await expect(tts.getByRole('combobox', { name: 'Voice', exact: true })).not.toHaveText('', { timeout: 10_000 });
  await choose(page, 'Voice', /^Jenny/);
  await screenshot(page, 'brain-02-composite-llm');

  await saveAvatar(page, 'Sage');
  await expect(page.getByText('Avatar updated successfully.')).toBeVisible();

  // Reload: the values are back, the keys masked.
  await page.reload();
  await editTab(page, 'Sage', 'Brain');
  await expect(page.getByRole('radio', { name: /Composite/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /Composite/ }).locator('xpath=ancestor::label')).toContainText('currently set');
  await expect(combo(page, 'Avatar Engine')).toHaveText('Large Language Model');
  await expect(section(page, 'Avatar Engine').getByLabel(/^API Key/)).toHaveValue(masked(STAND_IN_KEYS.openai));
  await expect(section(page, 'Avatar Engine').getByRole('combobox', { name: 'Model', exact: true })).toHaveText('gpt-4o-mini');
  await expect(stt.getByLabel(/^API Key/)).toHaveValue(masked(STAND_IN_KEYS.deepgram));
  await expect(stt.getByRole('combobox', { name: 'Language', exact: true })).toHaveText('Multilingual (multi)');
  await expect(tts.getByLabel(/^Subscription Key/)).toHaveValue(masked(STAND_IN_KEYS.azure));
  await expect(tts.getByRole('combobox', { name: 'Region', exact: true })).toHaveText('westeurope');
  await expect(tts.getByRole('combobox', { name: 'Voice', exact: true })).toContainText('Jenny');
  await screenshot(page, 'brain-03-reloaded');

  // Speech to Speech: the realtime engine, speech handled by the model.
  await page.getByRole('radio', { name: 'Speech to Speech' }).check();
  await expect(combo(page, 'Avatar Engine')).toHaveText('Parla Realtime');
  await expect(page.getByText('None: the engine listens itself.')).toBeVisible();
  await choose(page, 'Base URL', /^OpenAI/);
  await combo(page, 'Voice').click();
  await expect(page.getByRole('option')).toHaveCount(8);
  await page.keyboard.press('Escape');
  await screenshot(page, 'brain-04-speech-to-speech');

  // Back to Composite: the saved details are restored, model included (same mode as saved).
  await page.getByRole('radio', { name: /Composite/ }).check();
  await expect(combo(page, 'Avatar Engine')).toHaveText('Large Language Model');
  await expect(section(page, 'Avatar Engine').getByRole('combobox', { name: 'Model', exact: true })).toHaveText('gpt-4o-mini');
  await expect(combo(page, 'Speech to Text provider')).toHaveText('Deepgram');

  // Simple: Groq forced with its first model, the product's speech.
  await page.getByRole('radio', { name: 'Simple' }).check();
  await expect(combo(page, 'Base URL')).toContainText('Groq');
  await expect(combo(page, 'Base URL')).toHaveAttribute('aria-disabled', 'true');
  await expect(section(page, 'Avatar Engine').getByRole('combobox', { name: 'Model', exact: true })).toHaveText('llama-3.3-70b-versatile');
  await expect(combo(page, 'Speech to Text provider')).toHaveText(/default/);
  await screenshot(page, 'brain-05-simple');

  // 3rd Party AI: Agora TEN first, speech None.
  await page.getByRole('radio', { name: '3rd Party AI' }).check();
  await expect(combo(page, 'Avatar Engine')).toHaveText('Agora TEN');
  await expect(page.getByText('None: the engine speaks itself.')).toBeVisible();
  await expect(page.getByLabel(/^Agora App ID/)).toBeVisible();
  await screenshot(page, 'brain-05b-agora-ten');
});

test('the ElevenLabs agent check shows each of its states', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const customer = await customerWithAvatar(request, 'agent', 'Echo Agent');
  const page = await openEditor(browser, customer, 'Echo Agent', 'Brain');
  await page.getByRole('radio', { name: '3rd Party AI' }).check();
  await choose(page, 'Avatar Engine', 'ElevenLabs Conversational AI');
  await expect(page.getByRole('radiogroup', { name: 'Connection type' }).getByRole('radio', { name: 'WebRTC' })).toBeChecked();
  const id = page.getByLabel('Agent ID');
  const key = section(page, 'Avatar Engine').getByLabel(/^API Key/);

  await id.fill('agent_1');
  await expect(page.getByText('Agent ID is too short')).toBeVisible();
  await screenshot(page, 'brain-06-agent-too-short');

  await id.fill(STAND_IN_AGENTS.public);
  await expect(page.getByText('Public agent: it works without an API key.')).toBeVisible();
  await expect(key).toBeDisabled();
  await screenshot(page, 'brain-07-agent-public');

  await id.fill(STAND_IN_AGENTS.private);
  await expect(page.getByText('API key required for this agent')).toBeVisible();
  await key.fill('sk_wrong_but_long_enough_000');
  await expect(page.getByText('Invalid API key or insufficient permissions')).toBeVisible();
  await screenshot(page, 'brain-08-agent-invalid-key');
  await key.fill(STAND_IN_KEYS.elevenlabs);
  await expect(page.getByText('Private agent: the API key works for it.')).toBeVisible();
  await screenshot(page, 'brain-09-agent-private');

  await id.fill('agent_unknown_0123456789');
  await expect(page.getByText('Agent ID not found')).toBeVisible();
  await id.fill(STAND_IN_AGENTS.broken);
  await expect(page.getByText('An error occurred while validating the agent ID')).toBeVisible();
  await screenshot(page, 'brain-10-agent-error');

  // A private agent saves; reloaded it reads back private with its key masked.
  await id.fill(STAND_IN_AGENTS.private);
  await expect(page.getByText('Private agent: the API key works for it.')).toBeVisible();
  await saveAvatar(page, 'Echo Agent');
  await expect(page.getByText('Avatar updated successfully.')).toBeVisible();
  await page.reload();
  await editTab(page, 'Echo Agent', 'Brain');
  await expect(page.getByLabel('Agent ID')).toHaveValue(STAND_IN_AGENTS.private);
  await expect(section(page, 'Avatar Engine').getByLabel(/^API Key/)).toHaveValue(masked(STAND_IN_KEYS.elevenlabs));
  await expect(page.getByText('Private agent: the API key works for it.')).toBeVisible();
});
