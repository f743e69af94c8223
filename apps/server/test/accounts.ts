// Test helpers that create accounts the way a person does: register, verify from the
// outbox, sign in.
import { expect } from 'vitest';
import { settled } from '../src/modules/auth/auth.service';
import type { TestServer } from './harness';

let counter = 0;

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  token: string;
}

export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}.${Date.now().toString(36)}@example.com`.toLowerCase();
}

export async function latestOutboxCode(server: TestServer, to: string, segment: string): Promise<string> {
  // Some mails are written after the answer (forgot password): wait for that work first.
  await settled();
  const row = await server.ctx.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', to.toLowerCase())
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const match = new RegExp(`${segment}/([A-Za-z0-9_-]+)`).exec(row.text_body);
  if (!match) throw new Error(`no ${segment} link in: ${row.text_body}`);
  return match[1]!;
}

export async function login(server: TestServer, email: string, password: string): Promise<string> {
  const res = await server.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessionId as string;
}

export async function createCustomer(server: TestServer, prefix = 'customer'): Promise<TestAccount> {
  const email = uniqueEmail(prefix);
  const password = 'correct horse battery';
  const reg = await server.inject({
    method: 'POST',
    url: '/api/register',
    payload: { firstName: 'Test', lastName: prefix, email, password },
  });
  expect(reg.statusCode, reg.body).toBe(200);
  const code = await latestOutboxCode(server, email, 'email-verification');
  const ver = await server.inject({
    method: 'POST',
    url: '/api/email_verification',
    payload: { verificationCode: code, mode: 'verify', password },
  });
  expect(ver.statusCode, ver.body).toBe(200);
  const token = await login(server, email, password);
  const user = await server.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { id: user.id, email, password, token };
}

export async function createAdmin(server: TestServer): Promise<TestAccount> {
  const account = await createCustomer(server, 'admin');
  await server.ctx.db.updateTable('users').set({ user_type: 'ADMIN' }).where('id', '=', account.id).execute();
  return account;
}
