// Shared by the HTTP benches: the real Parla app over PGlite (or BENCH_DATABASE_URL), listening
// on loopback, with a signed-in ENTERPRISE customer whose avatars are made through the real save
// endpoint; and autocannon run in its own process (so the load generator does not share the
// server's event loop).
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql, type Selectable } from 'kysely';
import type { AvatarsTable } from '../apps/server/src/db/tables/avatars';
import { SubscriptionType } from '../packages/shared/src/plans';
import { build } from '../apps/server/src/app';
import { parseConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { multipart } from '../apps/server/test/avatar-requests';
import { ROOT } from './report-support';

export const APP_KEY = 'bench-app-key-0123456789';
const SECRET = 'bench-secret-key-0123456789-0123456789-abcdef';

export interface BenchServer {
  url: string;
  ctx: AppContext;
  database: Database;
  ownerId: string;
  /** Authorization header value of the signed-in customer. */
  authorization: string;
  close(): Promise<void>;
}

export async function startApiServer(
  avatars: number,
  opts: { serveWeb?: boolean; env?: Record<string, string> } = {},
): Promise<BenchServer> {
  const url = process.env.BENCH_DATABASE_URL;
  const schema = url ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const database = await openDatabase(url ? { databaseUrl: url, schema: schema! } : {});
  await migrate(database.db, database.schema);
  const dataDir = `/tmp/parla-bench-${randomBytes(4).toString('hex')}`;
  const config = parseConfig({
    APP_KEY,
    SECRET_KEY: SECRET,
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    ...opts.env,
  });
  const { app, ctx } = await build({ config, database, secretKey: SECRET, serveWeb: opts.serveWeb ?? false });
  await app.listen({ port: 0, host: '127.0.0.1' });

  const ownerId = '00000000-0000-4000-8000-00000000b001';
  const now = new Date();
  await database.db
    .insertInto('users')
    .values({
      id: ownerId,
      email: 'bench@example.com',
      password_hash: await hashPassword('bench password 1'),
      first_name: 'Bench',
      last_name: 'Customer',
      company_name: null,
      mobile_number: null,
      email_verified_at: now,
      subscription_type: SubscriptionType.ENTERPRISE,
      requested_sub_type: null,
      subscribed_since: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { authorization: `Bearer ${APP_KEY}` },
    payload: { email: 'bench@example.com', password: 'bench password 1' },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const authorization = `Bearer ${APP_KEY} ${login.json().sessionId as string}`;

  const catalogue = (await app.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars as { id: string; type: string }[];
  const appearance = catalogue.find((a) => a.type === '2d')!;
  for (let i = 0; i < avatars; i++) {
    // Realistic rows: half carry a REST key (answered masked, so decrypted per row).
    const json = {
      name: `Avatar ${i}`,
      dhType: appearance.type,
      appearanceId: appearance.id,
      ...(i % 2 ? { restApiKey: `rest-key-${randomBytes(12).toString('hex')}` } : {}),
    };
    const body = multipart([{ name: 'json', value: JSON.stringify(json) }]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/avatar_v2/add',
      headers: { ...body.headers, authorization },
      payload: body.payload,
    });
    if (res.statusCode !== 200) throw new Error(`avatar save failed: ${res.body}`);
  }
  await sql`analyze`.execute(database.db);

  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    ctx,
    database,
    ownerId,
    authorization,
    close: async () => {
      await app.close();
      if (url && schema) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(database.db);
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CannonResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** autocannon against one URL, in a child process; JSON result. */
export function cannon(
  url: string,
  opts: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<CannonResult> {
  const args = [join(ROOT, 'node_modules/autocannon/autocannon.js'), '--json', '-c', String(opts.connections), '-d', String(opts.seconds)];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return reject(err);
      const r = JSON.parse(stdout) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        errors: number;
        non2xx: number;
      };
      resolve({
        requests: r.requests.total,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors,
        non2xx: r.non2xx,
      });
    });
  });
}

/** The jsonb columns of a row read back, as the JSON text they are written as. */
function jsonColumns(row: Selectable<AvatarsTable>) {
  return {
    daily_limits: JSON.stringify(row.daily_limits),
    allowed_origins: JSON.stringify(row.allowed_origins),
    custom_data: JSON.stringify(row.custom_data),
    avatar_json: JSON.stringify(row.avatar_json),
    client_json: JSON.stringify(row.client_json),
    own_model: row.own_model === null ? null : JSON.stringify(row.own_model),
  };
}

/** Copies of the owner's newest avatar (same columns, new ids and tokens, each a second older
 *  than the last), written straight to the table: thousands of saves would take minutes. */
export async function copyAvatars(server: BenchServer, count: number): Promise<void> {
  const db = server.database.db;
  const source = await db
    .selectFrom('avatars')
    .selectAll()
    .where('owner_id', '=', server.ownerId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const oldest = await db
    .selectFrom('avatars')
    .select('created_at')
    .where('owner_id', '=', server.ownerId)
    .orderBy('created_at')
    .executeTakeFirstOrThrow();
  const base = new Date(oldest.created_at).getTime();
  for (let i = 0; i < count; i += 250) {
    const rows = Array.from({ length: Math.min(250, count - i) }, (_v, k) => ({
      ...source,
      ...jsonColumns(source),
      id: randomUUID(),
      token: randomBytes(30).toString('base64url'),
      name: `Copy ${i + k}`,
      avatar_photo_id: null,
      created_at: new Date(base - (i + k + 1) * 1000),
    }));
    await db.insertInto('avatars').values(rows).execute();
  }
  await sql`analyze`.execute(db);
}
