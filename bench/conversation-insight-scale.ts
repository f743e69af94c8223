// Bench 15, conversation insight at 100,000 conversations (issue 38 item 4). One avatar whose
// 100,000 analysed conversations (two questions and two answers each, 400,000 messages) spread
// over a year; the insight screen's requests — the figures, days and top questions of the last 30
// days and of the whole year, a page of the range's conversations, a search of their transcripts
// — against the avatar's past-conversations list's first page (decision 622: the paged list the
// product already had over the same rows) in the same run on the same database. Requests one
// after another. Goals: every request p50 ≤ 250 ms; the 30-day figures and the pages p50 ≤ 3×
// the peer's. The seed writes the rows directly, then rolls them up as migration 0641 does for
// conversations analysed before it (what the analysis stores for each one, decision 416).
// Peer check (issue 37), before timing: every conversation lies in the year's range, so the
// insight's first page of the year and the peer's first page (20 each, newest first) must be the
// same conversations in the same order, each equal on every field, compared as JSON; and the
// year's figures must count the seeded rows (conversations, and two turns each). A difference
// fails the bench.
//
//   node --import tsx bench/conversation-insight-scale.ts
//   BENCH_DATABASE_URL=postgres://... node --import tsx bench/conversation-insight-scale.ts
import { sql, type Kysely } from 'kysely';
import { backfillInsightRollups } from '../apps/server/src/db/migrations/0641-insight-rollups';
import { startApiServer } from './api-support';
import { pct, table, verdict, writeSection } from './report-support';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const GOAL_MS = 250;
const GOAL_RATIO = 3;

async function time(url: string, headers: Record<string, string>) {
  const get = async () => {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 3; i++) await get();
  const ms = [];
  for (let i = 0; i < RUNS; i++) ms.push(await get());
  return { p50: pct(ms, 50), p99: pct(ms, 99) };
}

async function main(): Promise<void> {
  const server = await startApiServer(1);
  const db = server.database.db;
  const headers = { authorization: server.authorization };
  const avatar = await db.selectFrom('avatars').select(['id', 'name']).where('owner_id', '=', server.ownerId).executeTakeFirstOrThrow();
  const now = Date.now();
  const t0 = performance.now();
  // Conversations every ~5 minutes back over a year; a question in ten asked often, the rest varied.
  await sql`
    insert into conversations (id, owner_id, avatar_id, avatar_name, avatar_type, user_id, user_name, status, started_at, last_seen_at, ended_at,
                               end_reason, analysed_at, turns, knowledge_turns, unanswered_turns)
    select 'c' || g, ${server.ownerId}, ${avatar.id}, ${avatar.name}, '2d', 'v' || g, 'Visitor ' || g, 'OFFLINE',
           to_timestamp(${now / 1000} - g * (31536000.0 / ${CONVERSATIONS})),
           to_timestamp(${now / 1000} - g * (31536000.0 / ${CONVERSATIONS}) + 30 + g % 300),
           to_timestamp(${now / 1000} - g * (31536000.0 / ${CONVERSATIONS}) + 30 + g % 300),
           'client', now(), 2, 1 + (g % 2), (g % 5 = 0)::int
      from generate_series(1, ${CONVERSATIONS}) g
  `.execute(db);
  await sql`
    insert into conversation_messages (id, conversation_id, owner_id, avatar_id, seq, role, text, at, knowledge_hits)
    select 'm' || g || '-' || s, 'c' || g, ${server.ownerId}, ${avatar.id}, s, case when s % 2 = 1 then 'user' else 'assistant' end,
           case when s % 2 = 0 then 'Here is what our guide says about that, in two sentences. Thank you for asking.'
                when g % 10 = 0 then 'When are you open on Sundays?'
                else 'Question number ' || (g % 997) || ' about delivery of parcel ' || g || ' to my address' end,
           to_timestamp(${now / 1000} - g * (31536000.0 / ${CONVERSATIONS}) + s * 5),
           case when s % 2 = 0 then 1 else null end
      from generate_series(1, ${CONVERSATIONS}) g, generate_series(1, 4) s
  `.execute(db);
  const rollT0 = performance.now();
  // What the analysis of each conversation stores for the insight (decision 416), made as the
  // migration makes it for conversations that existed before it.
  await backfillInsightRollups(db as unknown as Kysely<unknown>);
  const rollS = (performance.now() - rollT0) / 1000;
  await sql`analyze`.execute(db);
  const seedS = (performance.now() - t0) / 1000;

  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const month = `from=${day(now - 29 * 86_400_000)}&to=${day(now)}`;
  const year = `from=${day(now - 365 * 86_400_000)}&to=${day(now)}`;
  const base = `${server.url}/api/avatars/${avatar.id}`;
  const check = (await (await fetch(`${base}/insight?${year}`, { headers })).json()) as { conversations: number; turns: number };
  if (check.conversations !== CONVERSATIONS || check.turns !== 2 * CONVERSATIONS)
    throw new Error(`the insight counted ${check.conversations} conversations and ${check.turns} turns`);
  const firstPage = async (url: string) => {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return ((await res.json()) as { conversations: unknown[] }).conversations.map((c) => JSON.stringify(c));
  };
  const theirs = await firstPage(`${base}/conversations?page=1&pageSize=20`);
  const oursPage = await firstPage(`${base}/insight/conversations?${year}&page=1&pageSize=20`);
  if (theirs.length !== Math.min(20, CONVERSATIONS) || oursPage.length !== theirs.length || oursPage.some((c, i) => c !== theirs[i])) {
    const i = oursPage.findIndex((c, k) => c !== theirs[k]);
    throw new Error(
      `the insight's first page differs from the peer's at ${i}: ${oursPage[i] ?? 'nothing'} against ${theirs[i] ?? 'nothing'}`,
    );
  }

  const cases: [string, string, boolean][] = [
    ['past conversations, first page (peer)', `${base}/conversations?page=1&pageSize=20`, false],
    ['insight, last 30 days', `${base}/insight?${month}`, true],
    [`insight, whole year (${CONVERSATIONS.toLocaleString('en')})`, `${base}/insight?${year}`, false],
    ['conversations of the year, first page', `${base}/insight/conversations?${year}&page=1&pageSize=20`, true],
    ['conversations of the year, page 500', `${base}/insight/conversations?${year}&page=500&pageSize=20`, false],
    ['search of 30 days ("parcel 4242")', `${base}/insight/conversations?${month}&q=parcel%204242&page=1&pageSize=20`, true],
  ];
  const results = [];
  for (const [name, url, vsPeer] of cases) results.push({ name, vsPeer, ...(await time(url, headers)) });
  const exportT0 = performance.now();
  const exported = await (await fetch(`${base}/insight/export?${month}&format=csv`, { headers })).text();
  const exportMs = performance.now() - exportT0;
  await server.close();

  const peer = results[0]!;
  const f = (v: number) => v.toFixed(1);
  const rows = results.map((r) => [r.name, f(r.p50), f(r.p99), r === peer ? '1.00×' : `${(r.p50 / peer.p50).toFixed(2)}×`]);
  const goals = results
    .slice(1)
    .flatMap((r) => [
      `${r.name}: p50 ${f(r.p50)} ms (goal ≤ ${GOAL_MS} ms): ${verdict(r.p50 <= GOAL_MS)}`,
      ...(r.vsPeer
        ? [
            `${r.name}: p50 ${(r.p50 / peer.p50).toFixed(2)}× the peer's (goal ≤ ${GOAL_RATIO}×): ${verdict(r.p50 / peer.p50 <= GOAL_RATIO)}`,
          ]
        : []),
    ]);
  const lines = exported.split('\r\n').length - 2;
  const kind = server.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  console.log(
    `conversation-insight-scale on ${kind}: ${CONVERSATIONS} conversations seeded in ${seedS.toFixed(1)} s (their rollups ${rollS.toFixed(1)} s), ${RUNS} requests per figure`,
  );
  for (const r of rows) console.log(`  ${r.join('  ')}`);
  for (const g of goals) console.log(`  ${g}`);
  console.log(`  CSV export of 30 days: ${lines} messages, ${(exported.length / 1024 / 1024).toFixed(1)} MB in ${f(exportMs)} ms`);
  writeSection(
    `conversation-insight-scale${kind === 'PostgreSQL' ? '-postgres' : ''}`,
    `Bench 15 — conversation insight at 100,000 conversations (${kind})`,
    `One avatar with ${CONVERSATIONS.toLocaleString('en')} analysed conversations over a year (four messages each); the insight
screen's requests against the avatar's past-conversations list's first page (peer) on the same database in the same run;
${RUNS} requests one after another per figure. Checked before timing: the insight's first page of the year is the peer's
first page (the same ${Math.min(20, CONVERSATIONS)} conversations in the same order, equal as JSON) and the year's figures count the seeded rows. The CSV export of the last 30 days: ${lines} messages in ${f(exportMs)} ms.

${table(['request', 'p50 (ms)', 'p99 (ms)', 'p50 vs peer'], rows)}

${goals.map((g) => `- ${g}`).join('\n')}`,
  );
}

await main();
