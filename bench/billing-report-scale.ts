// Bench 12, the billing report at 10 and 5,000 avatars (issue 37: it was the last list without
// paging, 516 KB at 5,000 avatars and p50 8.5× the avatar list's). One customer whose avatars had
// one conversation each in the range; `GET /api/account_stats` as the Account screen asks for it
// (the first page of rows and the total row over all of them), against the avatar list's first
// page in the same run on the same database (the product's other paged list, the peer the issue
// compared it with). Requests one after another from a plain HTTP client accepting brotli.
// Goals at 5,000: p50 ≤ 2× the avatar list's p50, p50 ≤ 2× its own p50 at 10 avatars (flat),
// ≤ 100 KB as sent.
//
//   node --import tsx bench/billing-report-scale.ts
//   BENCH_DATABASE_URL=postgres://... node --import tsx bench/billing-report-scale.ts
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { copyAvatars, startApiServer } from './api-support';
import { pct, table, verdict, writeSection } from './report-support';

const SIZES = [10, 5000];
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const BYTES_GOAL_KB = 100;

function get(url: string, headers: Record<string, string>): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { headers: { ...headers, 'accept-encoding': 'br' } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () =>
        res.statusCode === 200 ? resolve({ ms: performance.now() - t0, bytes }) : reject(new Error(`${url}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function figures(url: string, headers: Record<string, string>) {
  for (let i = 0; i < 20; i++) await get(url, headers);
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(await get(url, headers));
  const ms = samples.map((s) => s.ms);
  return { p50: pct(ms, 50), p99: pct(ms, 99), kb: samples[0]!.bytes / 1024 };
}

async function main(): Promise<void> {
  const server = await startApiServer(SIZES[0]!);
  const db = server.database.db;
  const headers = { authorization: server.authorization };
  const end = Date.now();
  const start = end - 30 * 24 * 3600 * 1000;
  const stats = `${server.url}/api/account_stats?startDate=${start}&endDate=${end}`;
  const list = `${server.url}/api/avatar/list?limit=200&offset=0`;
  const results: { size: number; billing: Awaited<ReturnType<typeof figures>>; list: Awaited<ReturnType<typeof figures>> }[] = [];
  let have = SIZES[0]!;
  for (const size of SIZES) {
    if (size > have) await copyAvatars(server, size - have);
    have = size;
    // One finished conversation of two minutes for every avatar without one yet.
    const avatars = await db
      .selectFrom('avatars')
      .select(['id', 'name'])
      .where('owner_id', '=', server.ownerId)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('conversations').select('id').whereRef('conversations.avatar_id', '=', 'avatars.id'))),
      )
      .execute();
    for (let i = 0; i < avatars.length; i += 500) {
      await db
        .insertInto('conversations')
        .values(
          avatars.slice(i, i + 500).map((a, k) => {
            const at = end - 3600_000 - (i + k) * 1000;
            return {
              id: randomUUID(),
              owner_id: server.ownerId,
              avatar_id: a.id,
              avatar_name: a.name,
              avatar_type: '2d',
              user_id: `bench-${i + k}`,
              user_name: 'Bench visitor',
              device_id: null,
              device_os: null,
              locale: null,
              spoken_language: null,
              ip_address: null,
              node_id: null,
              started_at: new Date(at),
              last_seen_at: new Date(at + 120_000),
              ended_at: new Date(at + 120_000),
              end_reason: 'bye',
            };
          }),
        )
        .execute();
    }
    await sql`analyze`.execute(db);
    const check = (await (await fetch(stats, { headers })).json()) as { total: number; cummulativeData: { totalCallCount: number } };
    if (check.total !== size || check.cummulativeData.totalCallCount !== size)
      throw new Error(`the report counted ${check.total} avatars, not ${size}`);
    results.push({ size, billing: await figures(stats, headers), list: await figures(list, headers) });
  }
  await server.close();

  const small = results[0]!;
  const big = results.at(-1)!;
  const f = (v: number) => v.toFixed(1);
  const rows = results.flatMap((r) => [
    [String(r.size), 'billing report, first page and total', f(r.billing.p50), f(r.billing.p99), `${f(r.billing.kb)} KB`],
    [String(r.size), 'avatar list, first page (peer)', f(r.list.p50), f(r.list.p99), `${f(r.list.kb)} KB`],
  ]);
  const vsList = big.billing.p50 / big.list.p50;
  const growth = big.billing.p50 / small.billing.p50;
  const goals = [
    `p50 ${vsList.toFixed(2)}× the avatar list's at ${big.size} (goal ≤ 2×): ${verdict(vsList <= 2)}`,
    `p50 ${growth.toFixed(2)}× its own at ${small.size} avatars (goal ≤ 2×, flat): ${verdict(growth <= 2)}`,
    `${f(big.billing.kb)} KB as sent at ${big.size} (goal ≤ ${BYTES_GOAL_KB} KB): ${verdict(big.billing.kb <= BYTES_GOAL_KB)}`,
  ];
  const kind = server.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  console.log(`billing-report-scale on ${kind}, ${RUNS} requests per figure`);
  for (const r of rows) console.log(`  ${r.join('  ')}`);
  for (const g of goals) console.log(`  ${g}`);
  writeSection(
    `billing-report-scale${kind === 'PostgreSQL' ? '-postgres' : ''}`,
    `Bench 12 — the billing report at 5,000 avatars (${kind})`,
    `\`GET /api/account_stats\` (the first page of rows and the total row) for a customer whose ${results.map((r) => r.size).join(' and then ')} avatars
each had one conversation in the range, against the avatar list's first page on the same database in
the same run; ${RUNS} requests one after another per figure, accepting brotli.

${table(['avatars', 'request', 'p50 (ms)', 'p99 (ms)', 'sent'], rows)}

${goals.map((g) => `- ${g}`).join('\n')}`,
  );
}

await main();
