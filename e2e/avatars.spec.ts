// The avatar journey of spec 2, as a new customer: create an upper-body 3D avatar from the grid,
// the echo dialog, inline rename, photo through the crop dialog, an uploaded background and the
// lighting, the EMBED snippet copied, Connect opening the player, a stale save from a second
// browser, and delete. Screenshots of each screen go to test-results/screens/.
import { deflateSync } from 'node:zlib';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './support/test';
import { createCustomer, signIn, type Customer } from './support/accounts';
import { E2E_PORT } from './support/ports';
import { screenshot } from './support/screenshots';

const CRC_TABLE = Array.from({ length: 256 }, (_v, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A real PNG of one colour with a diagonal stripe, so crops and backgrounds are visible. */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const stripe = Math.abs(x * (height / width) - y) < height / 12;
      row.set(stripe ? [255, 255, 255] : rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const shot = (page: Page, name: string) => screenshot(page, `avatars-${name}`);

async function signedIn(browser: Browser, customer: Customer, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${E2E_PORT}` });
  const page = await context.newPage();
  await signIn(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  return page;
}

async function saveCard(page: Page, name: string) {
  await page
    .getByRole('article', { name: `Avatar ${name}` })
    .getByRole('button', { name: 'Save', exact: true })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Save Avatar' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Avatar updated successfully.').last()).toBeVisible();
}

test('a new customer builds, embeds, connects to and deletes an upper-body 3D avatar', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const customer = await createCustomer(request, 'avatars');
  const page = await signedIn(browser, customer);

  await expect(page.getByRole('heading', { name: 'Avatar Creator' })).toBeVisible();
  await expect(page.getByText('No avatars yet')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Environment' })).toBeDisabled();
  await shot(page, '01-empty');

  // START before an appearance is chosen, then the green CREATE AVATAR.
  await page.getByRole('button', { name: 'START' }).click();
  await expect(page.getByText('Please select an avatar appearance from the grid to start creating your avatar.')).toBeVisible();
  await page.getByRole('tab', { name: 'UPPER BODY 3D' }).click();
  await page.getByRole('listbox', { name: 'Avatar appearances' }).getByRole('option').first().click();
  await page.getByLabel('Avatar Name').fill('Nova');
  await expect(page.getByRole('button', { name: 'CREATE AVATAR' })).toBeVisible();
  await shot(page, '02-appearance-chosen');
  await page.getByRole('button', { name: 'CREATE AVATAR' }).click();

  const created = page.getByRole('dialog', { name: 'Avatar created' });
  await expect(created).toBeVisible();
  await expect(created).toContainText('select it in the left panel and click EDIT');
  await shot(page, '03-created-dialog');
  await created.getByRole('button', { name: 'OK' }).click();

  // Edit mode: the card is selected (Save, Close) and the other tabs open.
  let card = page.getByRole('article', { name: 'Avatar Nova' });
  await expect(card.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  await expect(card.getByText('Echo')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Environment' })).toBeEnabled();

  // Inline rename with the pen icon.
  await card.getByRole('button', { name: 'Edit avatar name' }).click();
  await card.getByLabel('Avatar Name').fill('Nova Prime');
  await card.getByLabel('Avatar Name').press('Enter');

  // Photo through the square crop dialog.
  await card.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(1200, 900, [219, 39, 119]) });
  const crop = page.getByRole('dialog', { name: 'Crop Avatar Photo' });
  await expect(crop).toBeVisible();
  await shot(page, '04-crop');
  await crop.getByRole('button', { name: 'Crop' }).click();
  await expect(crop).toBeHidden();
  await saveCard(page, 'Nova');
  card = page.getByRole('article', { name: 'Avatar Nova Prime' });
  await expect(card.getByRole('img', { name: 'Photo of Nova Prime' })).toBeVisible();
  const photo = await card
    .getByRole('img', { name: 'Photo of Nova Prime' })
    .evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, h: img.naturalHeight }));
  expect(photo.w).toBe(photo.h);
  expect(photo.w).toBeLessThanOrEqual(800);

  // Environment: upload a background image, then pick a lighting preset.
  await page.getByRole('tab', { name: 'Environment' }).click();
  await page
    .getByRole('button', { name: 'Upload image' })
    .locator('input[type=file]')
    .setInputFiles({ name: 'office.png', mimeType: 'image/png', buffer: png(320, 180, [51, 65, 85]) });
  await expect(page.getByRole('option', { name: 'office.png' })).toHaveAttribute('aria-selected', 'true');
  // A second click keeps the choice (issue 39); what will be saved is said in words.
  await page.getByRole('option', { name: 'office.png' }).click();
  await expect(page.getByRole('option', { name: 'office.png' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Visitors will see the background office.png (not saved yet).' })).toBeVisible();
  await page.getByRole('tablist', { name: 'Background steps' }).getByRole('tab', { name: 'Lighting' }).click();
  const lights = page.getByRole('listbox', { name: 'Lighting' });
  await expect(lights.getByRole('option', { name: 'No lighting preset' })).toHaveAttribute('aria-selected', 'true');
  await lights.getByRole('option').nth(1).click();
  await expect(lights.getByRole('option', { name: 'No lighting preset' })).toHaveAttribute('aria-selected', 'false');
  await shot(page, '05-environment');
  await saveCard(page, 'Nova Prime');
  await page.getByRole('tablist', { name: 'Background steps' }).getByRole('tab', { name: 'Background' }).click();
  await expect(page.getByRole('option', { name: 'Your image 1' })).toHaveAttribute('aria-selected', 'true');
  // Clearing the background is its own, visible pick; the colour field then opens.
  await page.getByRole('option', { name: 'No background image' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Visitors will see the color/ })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Background Color', exact: true })).toBeEnabled();
  await shot(page, '05b-environment-no-background');
  await page.getByRole('option', { name: 'Your image 1' }).click();

  // EMBED: copy the snippet.
  await page.getByRole('tab', { name: 'EMBED' }).click();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Copied to clipboard.')).toBeVisible();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toMatch(new RegExp(`^<iframe src="http://127\\.0\\.0\\.1:${E2E_PORT}/avatar/[\\w-]+\\?token=[\\w-]+"`));
  await page.getByRole('row', { name: /screenAspectRatio/ }).click();
  await expect(page.getByRole('complementary', { name: 'Field information' })).toContainText('The shape of the avatar stage');
  await shot(page, '06-embed');
  await page.getByRole('tab', { name: 'AVATAR/ENVIRONMENT JSON' }).click();
  await expect(page.getByText('"Lights"')).toBeVisible();
  await shot(page, '07-embed-json');

  // Connect opens the access link with the token: the player.
  const [player] = await Promise.all([page.waitForEvent('popup'), card.getByRole('link', { name: 'Connect' }).click()]);
  await expect(player).toHaveURL(/\/avatar\/[\w-]+\?token=[\w-]+$/);
  await expect(player.getByRole('button', { name: "LET'S CHAT" })).toBeVisible({ timeout: 20_000 });
  await screenshot(player, 'avatars-08-player', { fullPage: false });
  await player.close();

  // A second browser with an older copy saves: the stale toast with Reload Page.
  const other = await signedIn(browser, customer);
  await other.getByRole('article', { name: 'Avatar Nova Prime' }).getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('tab', { name: 'APPEARANCE' }).click();
  await card.getByRole('button', { name: 'Edit avatar name' }).click();
  await card.getByLabel('Avatar Name').fill('Nova One');
  await card.getByLabel('Avatar Name').press('Enter');
  await saveCard(page, 'Nova Prime');
  const otherCard = other.getByRole('article', { name: 'Avatar Nova Prime' });
  await otherCard.getByRole('button', { name: 'Edit avatar name' }).click();
  await otherCard.getByLabel('Avatar Name').fill('Nova Two');
  await otherCard.getByLabel('Avatar Name').press('Enter');
  await otherCard.getByRole('button', { name: 'Save', exact: true }).click();
  await other.getByRole('dialog', { name: 'Save Avatar' }).getByRole('button', { name: 'Save' }).click();
  await expect(
    other.getByText(
      'Avatar data is outdated. It may have been updated from another instance. Please refresh the page to load the latest version.',
    ),
  ).toBeVisible();
  await expect(other.getByRole('button', { name: 'Reload Page' })).toBeVisible();
  await shot(other, '09-stale');
  await other.getByRole('button', { name: 'Reload Page' }).click();
  await expect(other.getByRole('article', { name: 'Avatar Nova One' })).toBeVisible();
  await other.context().close();

  // Delete: confirmation, success, the dialog closes by itself and the selection resets.
  card = page.getByRole('article', { name: 'Avatar Nova One' });
  await card.getByRole('button', { name: 'Delete' }).click();
  const del = page.getByRole('dialog', { name: 'Delete Avatar' });
  await del.getByRole('button', { name: 'Delete' }).click();
  await expect(del.getByText('Deleted Successfully!')).toBeVisible();
  await shot(page, '10-deleted');
  await expect(del).toBeHidden({ timeout: 5000 });
  await expect(card).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'START' })).toBeVisible();
  await expect(page.getByText('No avatars yet')).toBeVisible();
});

test('below 760 px only the list shows, with Connect only', async ({ browser, request }) => {
  const customer = await createCustomer(request, 'mobile');
  const desktop = await signedIn(browser, customer);
  await desktop.getByRole('tab', { name: 'FULL BODY 3D' }).click();
  await desktop.getByRole('listbox', { name: 'Avatar appearances' }).getByRole('option').first().click();
  await desktop.getByLabel('Avatar Name').fill('Pocket');
  await desktop.getByRole('button', { name: 'CREATE AVATAR' }).click();
  await desktop.getByRole('dialog', { name: 'Avatar created' }).getByRole('button', { name: 'OK' }).click();
  await desktop.context().close();

  const phone = await signedIn(browser, customer, { width: 390, height: 844 });
  await expect(phone.getByRole('heading', { name: 'Your Avatars' })).toBeVisible();
  await expect(phone.getByText('To create and manage avatars, please use a desktop computer.')).toBeVisible();
  const card = phone.getByRole('article', { name: 'Avatar Pocket' });
  await expect(card.getByRole('link', { name: 'Connect' })).toBeVisible();
  await expect(card.getByRole('button', { name: /^(Edit|Save|Close|Delete)$/ })).toHaveCount(0);
  await expect(phone.getByRole('tab', { name: 'APPEARANCE' })).toHaveCount(0);
  await shot(phone, '11-mobile');
  await phone.getByRole('button', { name: 'Add Avatar' }).click();
  await expect(phone).toHaveURL(/\/react\/addavatar$/);
  await expect(phone.getByText('Creating and editing avatars needs a larger screen.')).toBeVisible();
  await shot(phone, '12-mobile-add');
});
