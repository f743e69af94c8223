// Shared steps of the Brain and ADVANCED journeys: an avatar created through the API (the avatar
// journey covers the creation screens), opened in the editor on a tab.
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { createCustomer, E2E_APP_KEY, signIn, type Customer } from './accounts';

export async function apiToken(request: APIRequestContext, c: Customer): Promise<string> {
  const res = await request.post('/api/login', {
    headers: { authorization: `Bearer ${E2E_APP_KEY}` },
    data: { email: c.email, password: c.password },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { sessionId: string }).sessionId;
}

/** A customer with one avatar named `name` (echo mode, as every new avatar). */
export async function customerWithAvatar(request: APIRequestContext, prefix: string, name: string): Promise<Customer> {
  const customer = await createCustomer(request, prefix);
  const token = await apiToken(request, customer);
  const cat = await request.get('/api/catalogue/avatars');
  const appearance = ((await cat.json()) as { avatars: { id: string; type: string }[] }).avatars[0]!;
  const res = await request.post('/api/avatar_v2/add', {
    headers: { authorization: `Bearer ${E2E_APP_KEY} ${token}` },
    multipart: { json: JSON.stringify({ name, dhType: appearance.type, appearanceId: appearance.id }) },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return customer;
}

export async function openEditor(browser: Browser, c: Customer, name: string, tab: 'Brain' | 'ADVANCED'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  await signIn(page, c.email, c.password);
  await expect(page).toHaveURL(/\/react\/avatars$/);
  await editTab(page, name, tab);
  return page;
}

export async function editTab(page: Page, name: string, tab: 'Brain' | 'ADVANCED'): Promise<void> {
  const card = page.getByRole('article', { name: `Avatar ${name}` });
  await expect(card).toBeVisible();
  if (!(await card.getByRole('button', { name: 'Save', exact: true }).isVisible()))
    await card.getByRole('button', { name: 'Edit', exact: true }).click();
  const target = page.getByRole('tab', { name: tab, exact: true });
  await expect(target).toBeEnabled();
  await target.click();
}

/** Save from the selected card, through the confirmation. */
export async function saveAvatar(page: Page, name: string): Promise<void> {
  await page
    .getByRole('article', { name: `Avatar ${name}` })
    .getByRole('button', { name: 'Save', exact: true })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Save Avatar' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Save' }).click();
}

/** Picks an option of an MUI select by the select's label. */
export async function choose(page: Page, label: string | RegExp, option: string | RegExp): Promise<void> {
  const listbox = page.getByRole('listbox');
  await page.getByRole('combobox', { name: label }).click();
  // The menu opens with a transition while the field's help panel opens beside the form; a click
  // on the option that landed as the page moved left the menu open (CI, custom-llm.spec, Base URL).
  // So the option is clicked again until the menu has closed.
  await expect(async () => {
    if (await listbox.isVisible()) await listbox.getByRole('option', { name: option }).click({ timeout: 2_000 });
    await expect(listbox).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}
