// Seeds test data through the launcher's seed control (support/seed-control.ts).
import { expect, type APIRequestContext } from '@playwright/test';
import { SEED_PORT } from './ports';
import type { SeedAvatarCopies, SeedConversation, SeedFailedMail, SeedFunctionCall, SeedListRows } from './seed-control';

export async function seedConversations(request: APIRequestContext, email: string, records: SeedConversation[]): Promise<void> {
  const res = await request.post(`http://127.0.0.1:${SEED_PORT}/conversations`, { data: { email, records } });
  expect(res.ok(), await res.text()).toBe(true);
}

/** `count` copies of one of the account's avatars (support/seed-control.ts). */
export async function seedAvatarCopies(request: APIRequestContext, input: SeedAvatarCopies): Promise<void> {
  const res = await request.post(`http://127.0.0.1:${SEED_PORT}/avatar-copies`, { data: input, timeout: 300_000 });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Rows of the paged lists: customers, a customer's functions or a collection's items. */
export async function seedListRows(request: APIRequestContext, input: SeedListRows): Promise<void> {
  const res = await request.post(`http://127.0.0.1:${SEED_PORT}/list-rows`, { data: input, timeout: 120_000 });
  expect(res.ok(), await res.text()).toBe(true);
}

/** A mail the sender gave up on, or (no `error`) the removal of those seeded to `to`. */
export async function seedFailedMail(request: APIRequestContext, input: SeedFailedMail): Promise<void> {
  const res = await request.post(`http://127.0.0.1:${SEED_PORT}/failed-mail`, { data: input });
  expect(res.ok(), await res.text()).toBe(true);
}

/** A live call in a function's log (e2e/support/seed-control.ts). */
export async function seedFunctionCall(request: APIRequestContext, input: SeedFunctionCall): Promise<void> {
  const res = await request.post(`http://127.0.0.1:${SEED_PORT}/function-call`, { data: input });
  expect(res.ok(), await res.text()).toBe(true);
}
