// Bench 1, the read API: `GET /api/avatar/list` of a signed-in customer with 50 avatars (session
// check, one page of cards, online counts; decision 211) against a bare Fastify route that runs
// the whole-row avatar query on the same database and answers its rows. autocannon with the
// same connections, in alternating rounds so that the shared machine's load falls on both.
// Goal: ours ≥ 0.7 × the bare route's requests per second.
//
//   node --import tsx bench/read-api.ts          (BENCH_SECONDS=10 BENCH_ROUNDS=3 BENCH_CONNECTIONS=10)
//   BENCH_DATABASE_URL=postgres://... node --import tsx bench/read-api.ts
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { cannon, startApiServer, type CannonResult } from './api-support';
import { table, verdict, writeSection } from './report-support';

const AVATARS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const GOAL = 0.7;

async function main(): Promise<void> {
  const server = await startApiServer(AVATARS);
  const db = server.database.db;
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({
    agents: await db
      .selectFrom('avatars')
      .selectAll()
      .where('owner_id', '=', server.ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute(),
  }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`;

  const check = await fetch(`${server.url}/api/avatar/list`, { headers: { authorization: server.authorization } });
  const listed = ((await check.json()) as { agents: unknown[] }).agents.length;
  if (check.status !== 200 || listed !== AVATARS) throw new Error(`the list answered ${check.status} with ${listed} avatars`);

  const opts = { connections: CONNECTIONS, seconds: SECONDS };
  await cannon(bareUrl, { ...opts, seconds: 2 });
  await cannon(`${server.url}/api/avatar/list`, { ...opts, seconds: 2, headers: { authorization: server.authorization } });
  const peer: CannonResult[] = [];
  const ours: CannonResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    peer.push(await cannon(bareUrl, opts));
    ours.push(await cannon(`${server.url}/api/avatar/list`, { ...opts, headers: { authorization: server.authorization } }));
  }
  await bare.close();
  await server.close();

  const sum = (rs: CannonResult[]) => ({
    rps: rs.reduce((a, r) => a + r.rps, 0) / rs.length,
    p50: rs.reduce((a, r) => a + r.p50, 0) / rs.length,
    p99: Math.max(...rs.map((r) => r.p99)),
    bad: rs.reduce((a, r) => a + r.errors + r.non2xx, 0),
  });
  const p = sum(peer);
  const o = sum(ours);
  const ratio = o.rps / p.rps;
  const db_ = server.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  console.log(`read-api: ${AVATARS} avatars, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, ${db_}`);
  console.log(
    `  peer (bare Fastify, same avatar query):  ${p.rps.toFixed(0).padStart(6)} req/s  p50 ${p.p50.toFixed(1)} ms  p99 ${p.p99.toFixed(1)} ms  errors ${p.bad}`,
  );
  console.log(
    `  GET /api/avatar/list:                    ${o.rps.toFixed(0).padStart(6)} req/s  p50 ${o.p50.toFixed(1)} ms  p99 ${o.p99.toFixed(1)} ms  errors ${o.bad}`,
  );
  console.log(`  ratio (ours / peer, req/s): ${ratio.toFixed(2)}x   goal ≥ ${GOAL}x: ${verdict(ratio >= GOAL)}`);
  console.log(`  per round (ours / peer): ${ours.map((r, i) => (r.rps / peer[i]!.rps).toFixed(2)).join(', ')}`);

  writeSection(
    'read-api',
    'Bench 1 — read API',
    `\`GET /api/avatar/list\` for a signed-in customer with ${AVATARS} avatars against a bare Fastify route running the
same avatar query on the same ${db_} database; autocannon (its own process), ${CONNECTIONS} connections,
${ROUNDS} alternating rounds of ${SECONDS} s. Goal: ≥ ${GOAL}× the peer's requests per second.

${table(
  ['', 'req/s', 'p50 (ms)', 'p99 (ms)', 'errors'],
  [
    ['peer: bare Fastify, same query', p.rps.toFixed(0), p.p50.toFixed(1), p.p99.toFixed(1), p.bad],
    ['Parla: GET /api/avatar/list', o.rps.toFixed(0), o.p50.toFixed(1), o.p99.toFixed(1), o.bad],
  ],
)}

Ratio ${ratio.toFixed(2)}× (rounds: ${ours.map((r, i) => (r.rps / peer[i]!.rps).toFixed(2)).join(', ')}): ${verdict(ratio >= GOAL)}.`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
