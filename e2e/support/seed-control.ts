// Test-only seeding of rows the product has no API to write (conversation records come from the
// runtime). It runs inside the e2e launcher, the one process that owns the embedded database,
// and writes through the same repository the runtime uses. Never part of the product server:
// it listens on its own loopback port (docs/decisions/502-e2e-seeding-from-the-launcher.md).
import { createServer, type Server } from 'node:http';
import type { AppContext } from '../../apps/server/src/context';
import { newId } from '../../apps/server/src/lib/tokens';
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

export async function startSeedControl(ctx: AppContext, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const reply = (status: number, value: unknown) => {
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(value));
      };
      if (req.method !== 'POST' || req.url !== '/conversations') return reply(404, { error: 'unknown seed' });
      let input: { email: string; records: SeedConversation[] };
      try {
        input = JSON.parse(body) as typeof input;
      } catch {
        return reply(400, { error: 'not JSON' });
      }
      seedConversations(ctx, input.email, input.records).then(
        (n) => reply(200, { seeded: n }),
        (err: unknown) => reply(500, { error: err instanceof Error ? err.message : String(err) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return server;
}
