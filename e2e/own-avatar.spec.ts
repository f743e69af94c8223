// Bring your own 3D avatar (issue 36 item 1, decision 123). A PRO customer uploads, in the
// Appearance tab, each of the catalogue generator's test models — Oculus visemes (Ready Player
// Me's names), ARKit blend shapes with mixamo bones, VRM 1.0 — saves, reads what was found, and
// talks to it in the player: saying "ah" opens its mouth (the mouth region darkens, pictures
// checked as faces.spec does). The model with no mouth shapes is refused with the message; a
// STARTER customer gets the upgrade prompt. Hostile files: apps/server/test/attack/own-model-bombs.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { test } from './support/test';
import { ownModelVariants } from '../scripts/catalogue/own-models';
import { createCustomer, E2E_ADMIN, E2E_APP_KEY, signIn, type Customer } from './support/accounts';
import { apiLogin, saveAvatar } from './support/conversation';
import { darkShare, mouthClip, SHOTS, teethShare } from './support/faces';
import { adminProxyAuth } from './support/player-avatar';
import { screenshot } from './support/screenshots';

const CATALOGUE = join(dirname(fileURLToPath(import.meta.url)), '../apps/server/assets/catalogue');
const index = JSON.parse(readFileSync(join(CATALOGUE, 'catalogue.json'), 'utf8')) as {
  avatars: { id: string; type: string; model: string }[];
};
const upperBody = index.avatars.find((a) => a.type === '2d')!;
const MODELS = ownModelVariants(readFileSync(join(CATALOGUE, upperBody.model)));

/** The customer asks for a plan and the administrator approves it, through the API. */
async function grantPlan(request: APIRequestContext, customer: Customer, subType: number): Promise<void> {
  const session = await apiLogin(request, customer.email, customer.password);
  const asked = await request.post('/api/account_upgrade', {
    headers: { authorization: `Bearer ${E2E_APP_KEY} ${session}` },
    data: { subType },
  });
  expect(asked.ok(), await asked.text()).toBe(true);
  const admin = `Bearer ${E2E_APP_KEY} ${await apiLogin(request, E2E_ADMIN.email, E2E_ADMIN.password)}`;
  const list = (await (await request.get('/api/admin/customers', { headers: { authorization: admin } })).json()) as {
    customers: { id: string; email: string }[];
  };
  const userId = list.customers.find((c) => c.email === customer.email)!.id;
  const decided = await request.post('/api/admin/subscription_decision', {
    headers: { authorization: admin },
    data: { userId, approve: true },
  });
  expect(decided.ok(), await decided.text()).toBe(true);
}

async function signedIn(browser: Browser, customer: Customer): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  return page;
}

/** Chooses a file in the Appearance tab's UPPER BODY 3D grid, as a person does. */
async function chooseModel(page: Page, name: string, data: Buffer) {
  await page.getByRole('tab', { name: 'APPEARANCE' }).click();
  await page.getByRole('tab', { name: 'UPPER BODY 3D' }).click();
  await page
    .getByRole('button', { name: 'Upload your 3D avatar' })
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'model/gltf-binary', buffer: data });
  await expect(page.getByRole('option', { name })).toHaveAttribute('aria-selected', 'true');
}

async function saveCard(page: Page, avatarName: string) {
  await page
    .getByRole('article', { name: `Avatar ${avatarName}` })
    .getByRole('button', { name: 'Save', exact: true })
    .click();
  await page.getByRole('dialog', { name: 'Save Avatar' }).getByRole('button', { name: 'Save' }).click();
}

/** Says "ah" to the avatar in the player and answers the dark share of the mouth, closed and at
 *  its most open, and the teeth's share in those two pictures. */
async function mouthOnAh(
  page: Page,
  url: string,
  name: string,
): Promise<{ closed: number; open: number; closedTeeth: number; openTeeth: number }> {
  // Every caption the page shows is recorded from its first script on: the wake-up's "Hi." can
  // come and go while software WebGL compiles the model's shaders after the stage says ready,
  // before a poll from here would see it.
  await page.addInitScript(() => {
    const w = window as unknown as { captionsSeen?: string[] };
    if (w.captionsSeen) return;
    w.captionsSeen = [];
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="captions"]')?.textContent?.trim();
      if (text && w.captionsSeen!.at(-1) !== text) w.captionsSeen!.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(url);
  await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  const face = page.getByTestId('avatar-face');
  const captions = page.getByTestId('captions');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { captionsSeen?: string[] }).captionsSeen ?? []), { timeout: 30_000 })
    .toContain('Hi.');
  await expect(captions).toBeHidden({ timeout: 30_000 });
  await expect(face).toHaveAttribute('data-viseme', 'sil');
  const clip = await mouthClip(page);
  const closed = await page.screenshot({ clip });
  await page.getByLabel('Message').fill('ah ah ah.');
  await page.getByLabel('Message').press('Enter');
  await expect(face).toHaveAttribute('data-viseme', 'aa', { timeout: 60_000 });
  const pictures: Buffer[] = [];
  const until = Date.now() + 30_000;
  while (pictures.length < 4 && Date.now() < until) {
    if ((await face.getAttribute('data-viseme')) === 'aa') {
      pictures.push(await page.screenshot({ clip }));
      await page.waitForTimeout(150);
    } else if (pictures.length > 0 && !(await captions.isVisible())) break;
    else await page.waitForTimeout(30);
  }
  let open = { dark: -1, png: closed };
  for (const png of pictures) {
    const dark = await darkShare(page, png);
    if (dark > open.dark) open = { dark, png };
  }
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(SHOTS, `own-${name}-closed.png`), closed);
  writeFileSync(join(SHOTS, `own-${name}-open.png`), open.png);
  await page.screenshot({ path: join(SHOTS, `own-${name}-stage.png`) });
  return {
    closed: await darkShare(page, closed),
    open: open.dark,
    closedTeeth: await teethShare(page, closed),
    openTeeth: await teethShare(page, open.png),
  };
}

test.describe('bring your own 3D avatar', () => {
  test.describe.configure({ timeout: 300_000 });

  test('a PRO customer uploads the Oculus, ARKit and VRM models in the Appearance tab and each opens its mouth on "ah"', async ({
    browser,
    request,
  }) => {
    const customer = await createCustomer(request, 'ownmodel');
    await grantPlan(request, customer, 2);
    // Slow speech in a language the embedded voice does not speak (as faces.spec): each "ah" holds
    // the open mouth long enough for software WebGL to picture it. Set once; the editor keeps it.
    const auth = await adminProxyAuth(request, customer.email);
    const a = await saveAvatar(request, auth, {
      name: 'Mine',
      dhType: '2d',
      appearanceId: upperBody.id,
      customData: { words_per_sec: 0.4, agent_pipeline_config: { stt: { provider: 'default', languages: 'de-DE' } } },
      wakeUpMessage: 'Hi.',
    });
    const page = await signedIn(browser, customer);
    await page.getByRole('article', { name: 'Avatar Mine' }).getByRole('button', { name: 'Edit' }).click();
    const player = await (await browser.newContext({ viewport: { width: 480, height: 480 } })).newPage();

    for (const [name, file, convention] of [
      ['oculus', 'rpm-avatar.glb', 'Oculus visemes'],
      ['arkit', 'mixamo-arkit.glb', 'ARKit blend shapes'],
      ['vrm1', 'vroid.vrm', 'VRM expressions'],
    ] as const) {
      await chooseModel(page, file, MODELS[name]);
      await saveCard(page, 'Mine');
      await expect(page.getByText('Avatar updated successfully.').last()).toBeVisible({ timeout: 60_000 });
      const note = page.getByText('Your 3D avatar talks.');
      await expect(note).toContainText(`Mouth: ${convention}`);
      await screenshot(page, `own-avatar-${name}-saved`);
      const dark = await mouthOnAh(player, `/avatar/${a.id}?token=${a.token}&connect=true&hideChatHistory=true`, name);
      expect(
        dark.open,
        `${name}: dark share of the mouth region, closed ${dark.closed.toFixed(3)} → open ${dark.open.toFixed(3)}`,
      ).toBeGreaterThan(dark.closed + 0.03);
    }
  });

  test('the uploaded model\'s viseme atlas is made by the editor\'s preview and stored; without WebGL the player draws it and its mouth opens on "ah"; the card shows its still', async ({
    browser,
    request,
  }) => {
    const customer = await createCustomer(request, 'ownatlas');
    await grantPlan(request, customer, 2);
    const auth = await adminProxyAuth(request, customer.email);
    const a = await saveAvatar(request, auth, {
      name: 'Atlas',
      dhType: '2d',
      appearanceId: upperBody.id,
      customData: { words_per_sec: 0.4, agent_pipeline_config: { stt: { provider: 'default', languages: 'de-DE' } } },
      wakeUpMessage: 'Hi.',
    });
    const page = await signedIn(browser, customer);
    // The preview's own report of the atlas it made (the player's console, inside the editor's frame).
    const made: string[] = [];
    page.on('console', (m) => {
      if (/viseme atlas/.test(m.text())) made.push(m.text());
    });
    await page.getByRole('article', { name: 'Avatar Atlas' }).getByRole('button', { name: 'Edit' }).click();
    await chooseModel(page, 'rpm-avatar.glb', MODELS.oculus);
    await saveCard(page, 'Atlas');
    await expect(page.getByText('Avatar updated successfully.').last()).toBeVisible({ timeout: 60_000 });

    // Stored: the player's public view now names the atlas, and the still is the card's face.
    const view = async () =>
      (await (await request.get(`/api/public/avatar/${a.id}?token=${a.token}`)).json()) as {
        appearance: { atlasURL?: string; previewURL: string };
      };
    await expect.poll(async () => (await view()).appearance.atlasURL ?? '', { timeout: 180_000, intervals: [1000] }).toMatch(/\.json$/);
    const { atlasURL, previewURL } = (await view()).appearance;
    const manifest = (await (await request.get(atlasURL!)).json()) as { atlas: string; width: number; height: number; rigid: boolean };
    expect(manifest).toMatchObject({ width: 480, height: 600, rigid: true, atlas: expect.stringMatching(/\.webp$/) });
    const atlasBytes = (await (await request.get(new URL(manifest.atlas, `http://x${atlasURL}`).pathname)).body()).length;
    console.log(`own model atlas: ${atlasBytes} bytes; ${made.join('; ') || 'no report seen'}`);
    const face = page.getByRole('article', { name: 'Avatar Atlas' }).getByRole('img', { name: 'Face of Atlas' });
    await expect(face).toHaveAttribute('src', previewURL, { timeout: 30_000 });
    expect(await face.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
    await screenshot(page, 'own-avatar-atlas-card');
    await page.getByRole('article', { name: 'Avatar Atlas' }).screenshot({ path: 'test-results/screens/own-avatar-atlas-card-only.png' });

    // A browser without WebGL (as faces.spec): the atlas, not the still picture, and lips that move.
    const player = await (await browser.newContext({ viewport: { width: 480, height: 480 } })).newPage();
    await player.addInitScript(() => {
      const get = HTMLCanvasElement.prototype.getContext as (this: HTMLCanvasElement, type: string, ...rest: unknown[]) => unknown;
      (HTMLCanvasElement.prototype as unknown as { getContext: typeof get }).getContext = function (type, ...rest) {
        return /webgl/.test(type) ? null : get.call(this, type, ...rest);
      };
    });
    const dark = await mouthOnAh(player, `/avatar/${a.id}?token=${a.token}&connect=true&hideChatHistory=true`, 'atlas');
    await expect(player.getByTestId('stage-notice')).toContainText('cannot draw 3D');
    await expect(player.getByTestId('avatar-face')).toHaveAttribute('data-render-profile', 'image');
    // This Chromium has no German voice either: both notices show, one under the other (the
    // no-voice notice used to cover the stage's).
    await expect(player.getByTestId('no-voice-notice')).toBeVisible();
    const [stageBox, voiceBox] = [
      await player.getByTestId('stage-notice').boundingBox(),
      await player.getByTestId('no-voice-notice').boundingBox(),
    ];
    expect(voiceBox!.y, 'the no-voice notice starts below the stage notice').toBeGreaterThanOrEqual(stageBox!.y + stageBox!.height);
    const drawn = await player.evaluate(
      (name) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(name)),
      manifest.atlas,
    );
    expect(drawn, 'the stored atlas is drawn, not the still picture').toBe(true);
    await screenshot(player, 'own-avatar-atlas-no-webgl');
    // The atlas's open mouth shows its teeth (light) as much as its dark inside, so both are
    // counted (as faces.spec counts the live face's teeth): seen 0.048 → 0.061 dark. A still
    // picture changes by nothing at all.
    const seen = `closed ${dark.closed.toFixed(3)} → open ${dark.open.toFixed(3)}; teeth ${dark.closedTeeth.toFixed(3)} → ${dark.openTeeth.toFixed(3)}`;
    console.log(`own model atlas without WebGL: mouth dark share ${seen}`);
    expect(dark.open, `dark share of the mouth region, ${seen}`).toBeGreaterThan(dark.closed + 0.008);
    expect(dark.openTeeth, `teeth share of the mouth region, ${seen}`).toBeGreaterThan(dark.closedTeeth + 0.005);
  });

  test('the model with no mouth shapes is refused with what is missing, and a STARTER customer is asked to upgrade', async ({
    browser,
    request,
  }) => {
    const pro = await createCustomer(request, 'ownmute');
    await grantPlan(request, pro, 2);
    const page = await signedIn(browser, pro);
    await page.getByRole('button', { name: 'START' }).click();
    await chooseModel(page, 'mute.glb', MODELS.mute);
    await page.getByLabel('Avatar Name').fill('Mute');
    await page.getByRole('button', { name: 'CREATE AVATAR' }).click();
    await expect(
      page.getByText(
        'This 3D avatar cannot be used: no mouth shapes found: expected Oculus visemes, ARKit blend shapes or VRM expressions',
      ),
    ).toBeVisible({ timeout: 60_000 });
    await screenshot(page, 'own-avatar-mute-refused');

    const starter = await createCustomer(request, 'ownstarter');
    await grantPlan(request, starter, 3);
    const other = await signedIn(browser, starter);
    await other.getByRole('button', { name: 'START' }).click();
    await other.getByRole('tab', { name: 'UPPER BODY 3D' }).click();
    await other.getByRole('button', { name: 'Upload your 3D avatar' }).click();
    const dialog = other.getByRole('dialog', { name: 'Higher Subscription Plan Required' });
    await expect(dialog).toContainText('Your own 3D avatars (.glb or .vrm) are part of the PRO and ENTERPRISE plans.');
    await screenshot(other, 'own-avatar-upgrade-prompt');
  });
});
