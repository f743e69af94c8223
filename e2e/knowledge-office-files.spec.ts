// Spreadsheets and slide decks in the knowledge base (issue 15 item 7): a customer uploads a small
// XLSX and PPTX made by the test through the knowledge screen's File tab, both become Ready, and
// an LLM avatar (the local OpenAI-compatible stand-in) answers in its chat widget from each: the
// retrieved row or slide reached the model's prompt with its source.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import { makePptx, makeXlsx } from '../apps/server/src/modules/knowledge/knowledge.fixtures';
import { createCustomer, E2E_APP_KEY, signIn } from './support/accounts';
import { apiLogin, saveAvatar } from './support/conversation';
import { screenshot } from './support/screenshots';
import { submitAndExpectUploaded } from './support/upload-verdict';
import { OPENAI_STAND_IN, OPENAI_STAND_IN_KEY } from './support/stand-ins/runtime';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

async function uploadFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByRole('button', { name: 'Add Knowledge' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Knowledge' });
  await dialog.getByRole('tab', { name: 'File' }).click();
  await dialog.getByLabel('Document file').setInputFiles(file);
  await submitAndExpectUploaded(page);
}

test('an XLSX and a PPTX uploaded on the knowledge screen become ready and an LLM avatar answers from them', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const customer = await createCustomer(request, 'kb-office');
  const auth = `Bearer ${E2E_APP_KEY} ${await apiLogin(request, customer.email, customer.password)}`;
  const jwt = ((await (await request.get('/api/token/jwt', { headers: { authorization: auth } })).json()) as { jwtToken: string }).jwtToken;
  // English chosen: detected from a price table alone, the language comes out as Spanish.
  const collection = (await (
    await request.post('/kb/v1/collections', { headers: { authorization: `Bearer ${jwt}` }, data: { name: 'Rental desk', language: 'en' } })
  ).json()) as { id: string };

  // The files, through the screen.
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await page.goto('/react/knowledgeBase');
  await page.getByRole('button', { name: /Rental desk/ }).click();
  await uploadFile(page, {
    name: 'rental-prices.xlsx',
    mimeType: XLSX,
    buffer: makeXlsx([
      {
        name: 'Prices',
        rows: [
          ['Tandem rental per day', '38 euros'],
          ['Model', 'Day rate'],
          ['City bike', '15 euros'],
        ],
      },
    ]),
  });
  await uploadFile(page, {
    name: 'safety-briefing.pptx',
    mimeType: PPTX,
    buffer: makePptx([
      { text: ['Helmets are lent free with every rental.', 'Ask at the desk for a child seat.'], notes: 'Mention the lights.' },
    ]),
  });
  const table = page.getByRole('table', { name: 'Knowledge items' });
  await expect(table.getByText('Ready', { exact: true })).toHaveCount(2, { timeout: 30_000 });
  await table.getByRole('button', { name: 'View rental-prices' }).click();
  const viewer = page.getByRole('dialog', { name: 'rental-prices' });
  await expect(viewer.getByRole('region', { name: 'Chunk 1' })).toContainText('City bike | 15 euros');
  await screenshot(page, 'knowledge-office-files');
  await viewer.getByRole('button', { name: 'Close' }).click();

  // An LLM avatar with the collection, asked in its chat widget.
  const appearance = ((await (await request.get('/api/catalogue/avatars')).json()).avatars as { id: string; type: string }[]).find(
    (a) => a.type === 'image',
  )!;
  const created = await saveAvatar(request, auth, { name: 'Rental Desk', dhType: appearance.type, appearanceId: appearance.id });
  const avatar = await saveAvatar(request, auth, {
    id: created.id,
    updated: created.updated,
    name: 'Rental Desk',
    dhType: appearance.type,
    appearanceId: appearance.id,
    nlpEngine: 10,
    setupMode: 'Composite',
    customData: {
      collection_ids: [collection.id],
      agent_pipeline_config: {
        llm: {
          provider: 'openai',
          base_url: `${OPENAI_STAND_IN}/v1`,
          api_key: OPENAI_STAND_IN_KEY,
          model: 'stand-in-model',
          instructions: 'You run the rental desk.',
          custom_text: 'Be brief.',
        },
      },
    },
  });
  const visitor = await browser.newPage();
  await visitor.goto(`/react/chatWidget/${avatar.id}?token=${avatar.token}&connect=true`);
  const frame = visitor.frameLocator('iframe[title="Chat with the avatar"]');
  await expect(frame.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const last = frame.getByRole('log', { name: 'Chat history' }).locator('.msg.assistant').last();
  const prompts = async () =>
    ((await (await request.get(`${OPENAI_STAND_IN}/_stand-in/chats`)).json()) as { messages: { role: string; content: string }[] }[]).map(
      (c) => c.messages[0]!.content,
    );

  await frame.getByLabel('Message').fill('How much is a tandem rental?');
  await frame.getByLabel('Message').press('Enter');
  await expect(last).toHaveText('According to rental-prices: Tandem rental per day | 38 euros');

  await frame.getByLabel('Message').fill('Are helmets free?');
  await frame.getByLabel('Message').press('Enter');
  await expect(last).toContainText('According to safety-briefing:');
  expect(
    (await prompts()).some((p) => p.includes('(source: safety-briefing)') && p.includes('Helmets are lent free with every rental.')),
  ).toBe(true);
  await visitor.screenshot({ path: 'test-results/screens/knowledge-office-chat.png' });
  await visitor.close();
});
