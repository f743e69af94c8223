// The editor's preview shows what visitors will see (issue 36, item 6): the real player at a
// usable size with the unsaved appearance, background and lighting, talking (echo) on a click
// before anything is saved, never a conversation on the server (no online user); and the avatar
// cards show the avatar's face, not a letter.
import { expect, type Page } from '@playwright/test';
import { test } from './support/test';
import type { CatalogueAvatarsResponse, CatalogueEnvironmentsResponse } from '@parla/shared/schemas/catalogue';
import { embeddedVoiceFor } from '@parla/shared/embedded-voices';
import { createCustomer, signIn } from './support/accounts';
import { audioTap, installAudioTap } from './support/audio-tap';
import { screenshot } from './support/screenshots';

async function create(page: Page, tab: string, option: number, name: string) {
  await page.getByRole('tab', { name: tab }).click();
  await page.getByRole('listbox', { name: 'Avatar appearances' }).getByRole('option').nth(option).click();
  await page.getByLabel('Avatar Name').fill(name);
  await page.getByRole('button', { name: 'CREATE AVATAR' }).click();
  const created = page.getByRole('dialog', { name: 'Avatar created' });
  await expect(created).toBeVisible();
  await created.getByRole('button', { name: 'OK' }).click();
}

test('the customer tries an unsaved appearance, background and lighting in the preview, which talks on a click; the cards show faces', async ({
  page,
  request,
}) => {
  test.slow(); // an upper-body 3D face in software WebGL
  const catalogue = (await (await request.get('/api/catalogue/avatars')).json()) as CatalogueAvatarsResponse;
  const env = (await (await request.get('/api/catalogue/environments')).json()) as CatalogueEnvironmentsResponse;
  const upperBody = catalogue.avatars.filter((a) => a.type === '2d');
  const background = env.backgrounds.find((b) => b.kind === 'image')!;
  const light = env.lights[1]!;
  const customer = await createCustomer(request, 'preview');
  // In every frame: what the captions said and each mouth shape, recorded as they change (a
  // short greeting can be over before a test would look).
  await page.addInitScript(() => {
    const w = window as unknown as { said: string[]; seen: string[] };
    w.said = [];
    w.seen = [];
    new MutationObserver(() => {
      const caption = document.querySelector('[data-testid=captions]')?.textContent;
      if (caption && w.said.at(-1) !== caption) w.said.push(caption);
      const viseme = document.querySelector<HTMLElement>('[data-testid=avatar-face]')?.dataset.viseme;
      if (viseme && w.seen.at(-1) !== viseme) w.seen.push(viseme);
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-viseme'] });
  });
  // What the preview plays (every frame): the built-in voice's audio is heard, not the browser's.
  await page.addInitScript(installAudioTap);
  const spoken: string[] = [];
  page.on('requestfinished', (r) => {
    if (r.url().endsWith('/api/tts/preview'))
      spoken.push((r.postDataJSON() as { voice: string; text: string }).voice + ': ' + (r.postDataJSON() as { text: string }).text);
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, customer.email, customer.password);

  // Two avatars: an image one, then an upper-body one that stays selected.
  await create(page, 'IMAGE AVATARS', 0, 'Ivy');
  await page.getByRole('article', { name: 'Avatar Ivy' }).getByRole('button', { name: 'Close' }).click();
  await create(page, 'UPPER BODY 3D', 0, 'Uma');
  for (const name of ['Ivy', 'Uma']) {
    const face = page.getByRole('article', { name: `Avatar ${name}` }).getByRole('img', { name: `Face of ${name}` });
    await expect(face).toBeVisible();
    await expect.poll(() => face.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }
  await screenshot(page, 'editor-preview-cards');

  // Unsaved: another appearance, a catalogue background and a lighting preset.
  await page.getByRole('tab', { name: 'APPEARANCE' }).click();
  await page.getByRole('tab', { name: 'UPPER BODY 3D' }).click();
  await page.getByRole('listbox', { name: 'Avatar appearances' }).getByRole('option').nth(1).click();
  await page.getByRole('tab', { name: 'Environment' }).click();
  await page.getByRole('option', { name: background.name }).click();
  await page.getByRole('tablist', { name: 'Background steps' }).getByRole('tab', { name: 'Lighting' }).click();
  await page.getByRole('listbox', { name: 'Lighting' }).getByRole('option', { name: light.name }).click();

  const iframe = page.getByTitle('Avatar preview');
  await expect(iframe).toHaveAttribute(
    'src',
    new RegExp(`appearanceId=${upperBody[1]!.id}.*backgroundId=${background.id}.*lightingId=${light.id}`),
  );
  // It speaks with the built-in voice visitors will hear: the one fitting the face.
  const voice = embeddedVoiceFor(upperBody[1]!.voiceGender);
  await expect(iframe).toHaveAttribute('src', new RegExp(`voice=${voice}(&|$)`));
  const box = (await iframe.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(400);
  expect(box.width).toBeGreaterThanOrEqual(280);
  const player = page.frameLocator('iframe[title="Avatar preview"]');
  await player.getByRole('button', { name: "LET'S CHAT" }).click();
  await expect(player.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(player.getByTestId('stage')).toHaveAttribute('data-avatar-type', '2d');
  await expect(player.getByTestId('stage-background')).toHaveAttribute('src', background.url);
  // One click: it greets with the avatar's wake-up message, and its lips move while it speaks.
  const frame = page.frames().find((f) => f.url().includes('/avatar/preview'))!;
  const said = () => frame.evaluate(() => (window as unknown as { said: string[] }).said);
  const shapes = () => frame.evaluate(() => new Set((window as unknown as { seen: string[] }).seen.filter((v) => v !== 'sil')).size);
  await expect.poll(said, { timeout: 20_000 }).toContain('Hello! How can I help you today?');
  // It echoes what the customer types.
  await player.getByLabel('Message').fill('Good afternoon, how are you doing today?');
  await player.getByLabel('Message').press('Enter');
  await expect.poll(said, { timeout: 20_000 }).toContain('Good afternoon, how are you doing today?');
  await expect(player.getByTestId('captions')).toHaveText('Good afternoon, how are you doing today?');
  await expect.poll(shapes, { timeout: 20_000 }).toBeGreaterThan(2);
  // Both were said by the server's built-in voice, and heard.
  expect(spoken).toEqual([`${voice}: Hello! How can I help you today?`, `${voice}: Good afternoon, how are you doing today?`]);
  const heard = await audioTap(frame);
  expect(heard.onsets.length, JSON.stringify(heard)).toBeGreaterThan(0);
  expect(heard.maxLevel).toBeGreaterThan(0.05);
  console.log('mouth shapes', JSON.stringify(await frame.evaluate(() => (window as unknown as { seen: string[] }).seen)));
  await screenshot(page, 'editor-preview-talking');

  // Nothing was saved and nobody visited: the card still has no online user.
  const card = page.getByRole('article', { name: 'Avatar Uma' });
  await card.getByRole('button', { name: 'Refresh online users' }).click();
  await expect(card.getByRole('button', { name: '0 online users of Uma' })).toBeVisible();
  // Still unsaved: Close asks, and Discard puts the saved appearance back in the preview.
  await card.getByRole('button', { name: 'Close' }).click();
  const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(ask).toContainText('Uma has changes that are not saved.');
  await ask.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('article', { name: 'Avatar Uma' }).getByRole('button', { name: 'Edit' }).click();
  await expect(iframe).toHaveAttribute('src', new RegExp(`appearanceId=${upperBody[0]!.id}&`));
});
