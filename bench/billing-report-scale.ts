// Bench 12, the billing report at 10 and 5,000 avatars (issue 37: it was the last list without
// paging, 516 KB at 5,000 avatars and p50 8.5× the avatar list's). One customer whose avatars had
// one conversation each in the range; `GET /api/account_stats` as the Account screen asks for it
// (the first page of rows and the total row over all of them), against the avatar list's first
// page in the same run on the same database (the product's other paged list, the peer the issue
// compared it with). Requests one after another from a plain HTTP client accepting brotli.
// Goals at 5,000: p50 ≤ 2× the avatar list's p50; flat: p50 ≤ 2× its own p50 at 10 avatars for
// the same answer (a page of 10 rows at both sizes, `limit=10`); ≤ 100 KB as sent.
// Why the flat goal compares a page of 10 rows (decision 901, amendment "flat means the same page"):
// the portal's request answers 10 rows at 10 avatars and 200 at 5,000, so its growth is the page's
// rows as much as the avatars (the avatar list's own first page grows about as much); both requests
// are printed, and the portal's growth stands beside the avatar list's.
// Peer check (issue 37), at each size before timing: the two answer different requests by design,
// so what must agree is the avatars they name and the seeded truth. The peer's list, read whole
// (page after page), sorted as the report sorts (lower-cased name, then name, then id, by code
// point: the seeded names are ASCII `Avatar n` and `Copy n`, which every collation orders alike),
// must give the report's first page: the same avatar ids with the same names in the same order.
// Each row must be one call of 2 minutes (each avatar had one conversation of 120 s), the total
// row the seeded sums (calls = avatars, minutes = 2 × avatars: whole minutes, so the exact total
// rounded once and the sum of the rounded rows agree), and `nextOffset` the page's size while more
// avatars follow, null otherwise (the answer has no row count since decision 500's amendment "the
// total row as the exact total"). A difference fails the bench.
//
//   node --import tsx bench/billing-report-scale.ts          (BENCH_AVATARS=600 BENCH_RUNS=20 for a small run)
//   BENCH_DATABASE_URL=postgres://... node --import tsx bench/billing-report-scale.ts
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { copyAvatars, startApiServer } from './api-support';
import { BILLING_PAGE } from '../packages/shared/src/limits';
import type { BillingRow } from '../packages/shared/src/schemas/billing';
import { pct, table, verdict, writeSection } from './report-support';

const SIZES = [10, Number(process.env.BENCH_AVATARS ?? 5000)];
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const BYTES_GOAL_KB = 100;
/** Rows of the page the flat goal compares at both sizes (all of them at 10 avatars). */
const SAME_PAGE = 10;

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

type Report = { billingData: BillingRow[]; cummulativeData: BillingRow; nextOffset: number | null };

async function json<T>(url: string, headers: Record<string, string>): Promise<T> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}

/** The report's first page must be the peer's avatars in the report's order, with the seeded sums. */
async function checkAgainstList(base: string, stats: string, headers: Record<string, string>, size: number, limit: number): Promise<void> {
  const whole: { id: string; name: string }[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page: { agents: { id: string; name: string }[]; nextOffset: number | null } = await json(
      `${base}/api/avatar/list?limit=1000&offset=${offset}`,
      headers,
    );
    whole.push(...page.agents.map((a) => ({ id: a.id, name: a.name })));
    offset = page.nextOffset;
  }
  if (whole.length !== size) throw new Error(`the avatar list named ${whole.length} avatars, not ${size}`);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  whole.sort((a, b) => cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(a.name, b.name) || cmp(a.id, b.id));
  const report = await json<Report>(stats, headers);
  const got = report.billingData.map((r) => `${r.avatarId} ${r.avatarName}`);
  const want = whole.slice(0, got.length).map((a) => `${a.id} ${a.name}`);
  if (got.length !== Math.min(size, limit) || got.some((g, i) => g !== want[i])) {
    const i = got.findIndex((g, k) => g !== want[k]);
    throw new Error(`the report's first page (${got.length} rows) differs from the avatar list at row ${i}: ${got[i]} against ${want[i]}`);
  }
  const odd = report.billingData.find((r) => r.totalCallCount !== 1 || r.totalCallDuration !== 2);
  if (odd) throw new Error(`the report gave ${odd.avatarName} ${odd.totalCallCount} calls of ${odd.totalCallDuration} minutes, not 1 of 2`);
  const t = report.cummulativeData;
  const next = size > limit ? limit : null;
  if (report.nextOffset !== next || t.totalCallCount !== size || t.totalCallDuration !== 2 * size)
    throw new Error(
      `the report's next offset and totals (${report.nextOffset}, ${t.totalCallCount} calls, ${t.totalCallDuration} minutes) are not ${next}, ${size}, ${2 * size}`,
    );
}

async function figures(url: string, headers: Record<string, string>) {
  for (let i = 0; i < 100; i++) await get(url, headers);
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
  const stats10 = `${stats}&limit=${SAME_PAGE}`;
  const list = `${server.url}/api/avatar/list?limit=200&offset=0`;
  type Figures = Awaited<ReturnType<typeof figures>>;
  const results: { size: number; billing: Figures; billing10: Figures; list: Figures }[] = [];
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
    await checkAgainstList(server.url, stats, headers, size, BILLING_PAGE);
    await checkAgainstList(server.url, stats10, headers, size, SAME_PAGE);
    results.push({
      size,
      billing: await figures(stats, headers),
      billing10: await figures(stats10, headers),
      list: await figures(list, headers),
    });
  }
  await server.close();

  const small = results[0]!;
  const big = results.at(-1)!;
  const f = (v: number) => v.toFixed(1);
  const rows = results.flatMap((r) => [
    [String(r.size), 'billing report, first page and total', f(r.billing.p50), f(r.billing.p99), `${f(r.billing.kb)} KB`],
    [
      String(r.size),
      `billing report, first ${SAME_PAGE} rows and total`,
      f(r.billing10.p50),
      f(r.billing10.p99),
      `${f(r.billing10.kb)} KB`,
    ],
    [String(r.size), 'avatar list, first page (peer)', f(r.list.p50), f(r.list.p99), `${f(r.list.kb)} KB`],
  ]);
  const vsList = big.billing.p50 / big.list.p50;
  const growth = big.billing10.p50 / small.billing10.p50;
  const goals = [
    `p50 ${vsList.toFixed(2)}× the avatar list's at ${big.size} (goal ≤ 2×): ${verdict(vsList <= 2)}`,
    `flat: a page of ${SAME_PAGE} rows, p50 ${growth.toFixed(2)}× its own at ${small.size} avatars (goal ≤ 2×): ${verdict(growth <= 2)}`,
    `${f(big.billing.kb)} KB as sent at ${big.size} (goal ≤ ${BYTES_GOAL_KB} KB): ${verdict(big.billing.kb <= BYTES_GOAL_KB)}`,
  ];
  const kind = server.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  console.log(`billing-report-scale on ${kind}, ${RUNS} requests per figure`);
  for (const r of rows) console.log(`  ${r.join('  ')}`);
  const pageGrowth = big.billing.p50 / small.billing.p50;
  const listGrowth = big.list.p50 / small.list.p50;
  const growthNote = `the portal's request (${Math.min(small.size, BILLING_PAGE)} rows at ${small.size} avatars, ${Math.min(big.size, BILLING_PAGE)} at ${big.size}): p50 ${pageGrowth.toFixed(2)}× from ${small.size} to ${big.size} avatars; the avatar list's first page (the peer, ${Math.min(small.size, 200)} and ${Math.min(big.size, 200)} cards) ${listGrowth.toFixed(2)}×`;
  for (const g of goals) console.log(`  ${g}`);
  console.log(`  ${growthNote}`);
  writeSection(
    `billing-report-scale${kind === 'PostgreSQL' ? '-postgres' : ''}`,
    `Bench 12 — the billing report at 5,000 avatars (${kind})`,
    `\`GET /api/account_stats\` (the first page of rows and the total row, as the portal asks for it and with \`limit=${SAME_PAGE}\`) for a customer whose ${results.map((r) => r.size).join(' and then ')} avatars
each had one conversation in the range, against the avatar list's first page on the same database in
the same run; ${RUNS} requests one after another per figure, accepting brotli. Checked at each size against the peer:
each of the report's first pages names the avatar list's avatars (read whole, sorted by lower-cased name, name, id) in that order,
each row 1 call of 2 minutes, totals the seeded ${results.map((r) => `${r.size} calls, ${2 * r.size} minutes`).join(' and ')}.

${table(['avatars', 'request', 'p50 (ms)', 'p99 (ms)', 'sent'], rows)}

${goals.map((g) => `- ${g}`).join('\n')}

Beside the goals, ${growthNote}: the growth of a page that holds more rows, not a goal (decision 901).`,
  );
}

await main();
