// Test-only seeding of rows the product has no API to write (conversation records come from the
// runtime). It runs inside the e2e launcher, the one process that owns the embedded database,
// and writes through the same repository the runtime uses; avatar copies (a large account for the
// list's test) go through the avatars repository. Never part of the product server: it listens
// on its own loopback port (docs/decisions/502-e2e-seeding-from-the-launcher.md).
import { createServer, type Server } from 'node:http';
import type { AppContext } from '../../apps/server/src/context';
import * as outbox from '../../apps/server/src/lib/mail-outbox.repository';
import { newId, newToken } from '../../apps/server/src/lib/tokens';
import { find as findAvatar, insert as insertAvatar } from '../../apps/server/src/modules/avatars/avatars.repository';
import { insertCalls } from '../../apps/server/src/modules/functions/functions.repository';
import { endConversation, startConversation } from '../../apps/server/src/modules/conversations/conversations.repository';

export interface SeedConversation {
  avatarId: string;
  avatarName: string;
  /** Epoch ms. */
  startedAt: number;
  /** Epoch ms; null leaves the conversation open. */
  endedAt: number | null;
}

async function seedConversations(ctx: AppContext, email: string, records: SeedConversation[]): Promise<number> {
  const owner = await ctx.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
  for (const r of records) {
    const id = newId();
    await startConversation(ctx.db, {
      id,
      owner_id: owner.id,
      avatar_id: r.avatarId,
      avatar_name: r.avatarName,
      avatar_type: '2d',
      user_id: `e2e-${id.slice(0, 8)}`,
      user_name: 'E2E visitor',
      started_at: new Date(r.startedAt),
      last_seen_at: new Date(r.startedAt),
    });
    if (r.endedAt !== null) await endConversation(ctx.db, id, new Date(r.endedAt), 'bye');
  }
  return records.length;
}

export interface SeedAvatarCopies {
  email: string;
  /** An avatar of the account, made through the product; the copies take its settings. */
  sourceId: string;
  count: number;
}

/** Copies of one of the account's avatars, each a second older than the last (a large account
 *  without thousands of saves through the browser), through the avatars repository's insert. */
async function seedAvatarCopies(ctx: AppContext, input: SeedAvatarCopies): Promise<number> {
  const owner = await ctx.db.selectFrom('users').select('id').where('email', '=', input.email.toLowerCase()).executeTakeFirstOrThrow();
  const source = await findAvatar(ctx.db, owner.id, input.sourceId);
  if (!source) throw new Error('no such avatar of this account');
  const base = new Date(source.created_at).getTime();
  // Links (functions, collections, a key) are rows of their own (migration 0220): the copies have none.
  const { functions: _links, ...columns } = { ...source, enc_key_id: source.enc_key_id === 'None' ? 'None' : 'Default' };
  const json = {
    daily_limits: JSON.stringify(source.daily_limits),
    allowed_origins: JSON.stringify(source.allowed_origins),
    custom_data: JSON.stringify(source.custom_data),
    avatar_json: JSON.stringify(source.avatar_json),
    client_json: JSON.stringify(source.client_json),
    own_model: source.own_model ? JSON.stringify(source.own_model) : null,
  };
  for (let i = 0; i < input.count; i++) {
    const at = new Date(base - (i + 1) * 1000);
    await insertAvatar(ctx.db, {
      ...columns,
      ...json,
      id: newId(),
      token: newToken(),
      name: `Seeded ${String(i + 1).padStart(4, '0')}`,
      avatar_photo_id: null,
      created_at: at,
      updated_at: at,
    });
  }
  return input.count;
}

export interface SeedListRows {
  /** The account the rows belong to (knowledge items, functions); none for customers. */
  email?: string;
  kind: 'customers' | 'functions' | 'knowledge-items';
  count: number;
  /** knowledge-items: the account's collection. */
  collectionId?: string;
}

/** Rows of the lists that page (decision 221), each a second older than the last: customers,
 *  a customer's functions (Pending), or ready text items of a collection. */
async function seedListRows(ctx: AppContext, input: SeedListRows): Promise<number> {
  const base = Date.now() - 60_000;
  const at = (i: number) => new Date(base - i * 1000);
  const n = (i: number) => String(i + 1).padStart(4, '0');
  const ownerId = input.email
    ? (await ctx.db.selectFrom('users').select('id').where('email', '=', input.email.toLowerCase()).executeTakeFirstOrThrow()).id
    : '';
  for (let start = 0; start < input.count; start += 500) {
    const ids = Array.from({ length: Math.min(500, input.count - start) }, (_, j) => start + j);
    if (input.kind === 'customers') {
      await ctx.db
        .insertInto('users')
        .values(
          ids.map((i) => ({
            id: newId(),
            email: `seeded-${n(i)}@example.com`,
            password_hash: 'seeded',
            first_name: 'Seeded',
            last_name: `Customer ${n(i)}`,
            created_at: at(i),
          })),
        )
        .execute();
    } else if (input.kind === 'functions') {
      await ctx.db
        .insertInto('functions')
        .values(
          ids.map((i) => ({
            id: newId(),
            owner_id: ownerId,
            name: `seeded_${n(i)}.py`,
            code: `x = ${i}\n`,
            code_sha256: `seeded-${i}`,
            created_at: at(i),
            updated_at: at(i),
          })),
        )
        .execute();
    } else {
      await ctx.db
        .insertInto('knowledge_items')
        .values(
          ids.map((i) => ({
            id: newId(),
            owner_id: ownerId,
            collection_id: input.collectionId!,
            name: `Seeded item ${n(i)}`,
            kind: 'text' as const,
            content: `Seeded text ${i}`,
            status: 'ready' as const,
            created_at: at(i),
            updated_at: at(i),
          })),
        )
        .execute();
    }
  }
  return input.count;
}

export interface SeedFailedMail {
  to: string;
  /** The SMTP error the mail failed with; absent: the seeded mails to `to` are removed. */
  error?: string;
}

/** A mail the outbox's sender gave up on (decision 012), through the outbox repository: queued
 *  and marked failed in one transaction, so the running sender never sees it queued. */
async function seedFailedMail(ctx: AppContext, input: SeedFailedMail): Promise<number> {
  if (input.error === undefined) {
    const res = await ctx.db.deleteFrom('mail_outbox').where('to_address', '=', input.to).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
  const error = input.error;
  await ctx.db.transaction().execute(async (trx) => {
    const id = newId();
    await outbox.insert(trx, {
      id,
      to_address: input.to,
      subject: 'Seeded mail',
      text_body: 'Seeded',
      html_body: null,
      next_attempt_at: new Date(),
    });
    await outbox.markFailed(trx, id, error);
  });
  return 1;
}

export interface SeedFunctionCall {
  /** A function of the account; the call is by the account's avatar `avatarId`. */
  functionId: string;
  avatarId: string;
  ok: boolean;
  excerpt: string;
  durationMs: number;
}

/** A live call in a function's log, through the repository the runtime's call log writes with
 *  (a live call needs a realtime avatar and a model; the API tests drive one). */
async function seedFunctionCall(ctx: AppContext, input: SeedFunctionCall): Promise<number> {
  await insertCalls(ctx.db, [
    {
      function_id: input.functionId,
      avatar_id: input.avatarId,
      called_at: new Date(),
      duration_ms: input.durationMs,
      ok: input.ok,
      excerpt: input.excerpt,
    },
  ]);
  return 1;
}

export async function startSeedControl(ctx: AppContext, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const reply = (status: number, value: unknown) => {
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        // No keep-alive (as the mail reader: a reused socket the server closes as idle resets).
        res.setHeader('connection', 'close');
        res.end(JSON.stringify(value));
      };
      if (
        req.method !== 'POST' ||
        !['/conversations', '/avatar-copies', '/list-rows', '/failed-mail', '/function-call'].includes(req.url ?? '')
      )
        return reply(404, { error: 'unknown seed' });
      let input: { email: string; records: SeedConversation[] } & SeedAvatarCopies & SeedListRows & SeedFailedMail & SeedFunctionCall;
      try {
        input = JSON.parse(body) as typeof input;
      } catch {
        return reply(400, { error: 'not JSON' });
      }
      const seeded =
        req.url === '/function-call'
          ? seedFunctionCall(ctx, input)
          : req.url === '/failed-mail'
            ? seedFailedMail(ctx, input)
            : req.url === '/avatar-copies'
              ? seedAvatarCopies(ctx, input)
              : req.url === '/list-rows'
                ? seedListRows(ctx, input)
                : seedConversations(ctx, input.email, input.records);
      seeded.then(
        (n) => reply(200, { seeded: n }),
        (err: unknown) => reply(500, { error: err instanceof Error ? err.message : String(err) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return server;
}
