// Bench 8, lists that scale: `GET /api/avatar/list` of a customer with 100 and then 5,000
// avatars, as the portal asks for it (the first page of cards), and its search over every avatar
// id. Peer in the same run, on the same database: the list as it was before decision 211 (every
// avatar whole, media and online counts, secrets decrypted to print masks), served by a bare
// Fastify route with the product's own `toAvatar`. Requests one after another from a plain HTTP
// client that accepts brotli; bytes are those on the wire.
// Goals at 5,000 avatars, for the request the portal makes (the first page): p99 ≤ 50 ms and
// ≤ 100 KB as sent. The search and the last page are printed beside it.
// Peer check (issue 37), at each size before timing: the peer answers every avatar whole, Parla one
// page of cards, so the normalisation is: each page Parla answers (the first, the search, the last)
// must be the peer's list at the same place (the same offset; for the search, the peer's avatars
// whose id holds the search), the same avatars in the same order, each card equal to its whole
// avatar on every field the two share (id, name, engine, type, appearance, users online, dates,
// photo, token…), compared as JSON. A difference fails the bench.
//
//   node --import tsx bench/avatar-list-scale.ts
//   BENCH_DATABASE_URL=postgres://... node --import tsx bench/avatar-list-scale.ts
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import compress from '@fastify/compress';
import { countOnlineByAvatar } from '../apps/server/src/modules/conversations/conversations.repository';
import { listMedia } from '../apps/server/src/modules/avatars/avatars.repository';
import { toAvatar } from '../apps/server/src/modules/avatars/avatars.service';
import { copyAvatars, startApiServer, type BenchServer } from './api-support';
import { pct, table, verdict, writeSection } from './report-support';

const SIZES = [100, 5000];
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const PEER_RUNS = Number(process.env.BENCH_PEER_RUNS ?? 12);
const P99_GOAL_MS = 50;
const BYTES_GOAL_KB = 100;

interface Sample {
  ms: number;
  bytes: number;
}

function get(url: string, headers: Record<string, string>): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { headers }, (res) => {
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

/** The decoded JSON body of a GET (no compression asked for). */
function json(url: string, headers: Record<string, string>): Promise<{ agents: Record<string, unknown>[] }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(JSON.parse(Buffer.concat(parts).toString('utf8')) as { agents: Record<string, unknown>[] })
          : reject(new Error(`${url}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Parla's page of cards must be the peer's whole avatars at the same place, on every field a card
 *  and its avatar share (see the header). Returns the fields compared. */
function checkPage(what: string, cards: Record<string, unknown>[], whole: Record<string, unknown>[]): Set<string> {
  const compared = new Set<string>();
  if (cards.length !== whole.length) throw new Error(`${what}: Parla answered ${cards.length} avatars, the peer ${whole.length}`);
  cards.forEach((card, i) => {
    const avatar = whole[i]!;
    const shared = Object.keys(card).filter((k) => k in avatar);
    for (const k of shared) compared.add(k);
    const pick = (o: Record<string, unknown>) => JSON.stringify(shared.map((k) => o[k]));
    if (pick(card) !== pick(avatar))
      throw new Error(`${what}, avatar ${i}: Parla answered ${pick(card).slice(0, 300)}, the peer ${pick(avatar).slice(0, 300)}`);
  });
  return compared;
}

interface Figures {
  p50: number;
  p99: number;
  sentKb: number;
  rawKb: number;
}

async function figures(url: string, headers: Record<string, string>, runs: number): Promise<Figures> {
  const raw = await get(url, headers);
  for (let i = 0; i < Math.min(30, runs); i++) await get(url, { ...headers, 'accept-encoding': 'br' });
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await get(url, { ...headers, 'accept-encoding': 'br' }));
  const ms = samples.map((s) => s.ms);
  return { p50: pct(ms, 50), p99: pct(ms, 99), sentKb: samples[0]!.bytes / 1024, rawKb: raw.bytes / 1024 };
}

/** The list before decision 211, on the same database and with the same code for one avatar. */
async function startPeer(server: BenchServer): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
  const { ctx, ownerId } = server;
  app.get('/before', async () => {
    const [rows, media, online] = await Promise.all([
      ctx.db.selectFrom('avatars').selectAll().where('owner_id', '=', ownerId).orderBy('created_at', 'desc').orderBy('id').execute(),
      listMedia(ctx.db, ownerId),
      countOnlineByAvatar(ctx.db, ownerId),
    ]);
    const byAvatar = new Map<string, typeof media>();
    for (const m of media) byAvatar.set(m.avatar_id, [...(byAvatar.get(m.avatar_id) ?? []), m]);
    return { agents: rows.map((r) => toAvatar(ctx, { ...r, functions: [] }, byAvatar.get(r.id) ?? [], online.get(r.id) ?? 0)) };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/before`, close: () => app.close() };
}

async function main(): Promise<void> {
  const server = await startApiServer(SIZES[0]!);
  const peer = await startPeer(server);
  const headers = { authorization: server.authorization };
  const db = server.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const results: { size: number; first: Figures; search: Figures; last: Figures; before: Figures }[] = [];
  let have = SIZES[0]!;
  const compared = new Set<string>();
  for (const size of SIZES) {
    if (size > have) await copyAvatars(server, size - have);
    have = size;
    const oldest = await server.database.db
      .selectFrom('avatars')
      .select('id')
      .where('owner_id', '=', server.ownerId)
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    const lastOffset = Math.max(0, Math.floor((size - 1) / 200) * 200);
    const search = oldest.id.slice(0, 13);
    const whole = (await json(peer.url, {})).agents;
    if (whole.length !== size) throw new Error(`the peer answered ${whole.length} avatars of ${size}`);
    const page = async (query: string) => (await json(`${server.url}/api/avatar/list?${query}`, headers)).agents;
    for (const k of checkPage(`${size} avatars, first page`, await page('limit=200&offset=0'), whole.slice(0, 200))) compared.add(k);
    checkPage(
      `${size} avatars, search`,
      await page(`limit=200&offset=0&search=${search}`),
      whole.filter((a) => String(a.id).includes(search)).slice(0, 200),
    );
    checkPage(`${size} avatars, last page`, await page(`limit=200&offset=${lastOffset}`), whole.slice(lastOffset, lastOffset + 200));
    results.push({
      size,
      first: await figures(`${server.url}/api/avatar/list?limit=200&offset=0`, headers, RUNS),
      search: await figures(`${server.url}/api/avatar/list?limit=200&offset=0&search=${search}`, headers, RUNS),
      last: await figures(`${server.url}/api/avatar/list?limit=200&offset=${lastOffset}`, headers, RUNS),
      before: await figures(peer.url, {}, PEER_RUNS),
    });
  }
  await peer.close();
  await server.close();

  const f = (v: number) => v.toFixed(1);
  const big = results.at(-1)!;
  const small = results[0]!;
  console.log(`avatar-list-scale on ${db}: ${RUNS} requests per figure (${PEER_RUNS} for the list before)`);
  const rows: string[][] = [];
  for (const r of results) {
    const line = (name: string, x: Figures) => [`${r.size}`, name, f(x.p50), f(x.p99), `${f(x.sentKb)} KB`, `${f(x.rawKb)} KB`];
    rows.push(
      line('before: every avatar whole (peer)', r.before),
      line('first page of cards (what the portal asks)', r.first),
      line('search by id over every avatar', r.search),
      line('last page', r.last),
    );
  }
  for (const r of rows)
    console.log(
      `  ${r[0]!.padStart(5)} avatars  ${r[1]!.padEnd(44)} p50 ${r[2]!.padStart(7)} ms  p99 ${r[3]!.padStart(7)} ms  sent ${r[4]!.padStart(10)}  uncompressed ${r[5]}`,
    );
  const p99Met = big.first.p99 <= P99_GOAL_MS;
  const bytesMet = big.first.sentKb <= BYTES_GOAL_KB;
  const growth = `from ${small.size} to ${big.size} avatars (${(big.size / small.size).toFixed(0)}× the rows): the first page's p50 grows ${(big.first.p50 / small.first.p50).toFixed(2)}× and its bytes ${(big.first.sentKb / small.first.sentKb).toFixed(2)}×; the list before grew ${(big.before.p50 / small.before.p50).toFixed(1)}× in time and ${(big.before.sentKb / small.before.sentKb).toFixed(1)}× in bytes`;
  const ratio = `at ${big.size} avatars the first page is ${(big.before.p50 / big.first.p50).toFixed(0)}× faster at p50 than the list before and ${(big.before.sentKb / big.first.sentKb).toFixed(0)}× smaller as sent (${(big.before.rawKb / big.first.rawKb).toFixed(0)}× uncompressed)`;
  const checked = `every page checked against the peer's list at the same place: the same avatars in the same order, equal on the fields a card shares with the whole avatar (${[...compared].join(', ')})`;
  console.log(`  ${checked}`);
  console.log(`  growth ${growth}`);
  console.log(`  ${ratio}`);
  console.log(
    `  goals at ${big.size}, first page: p99 ${f(big.first.p99)} ms ≤ ${P99_GOAL_MS} ms: ${verdict(p99Met)}; ${f(big.first.sentKb)} KB ≤ ${BYTES_GOAL_KB} KB: ${verdict(bytesMet)}`,
  );

  writeSection(
    `avatar-list-scale${db === 'PostgreSQL' ? '-postgres' : ''}`,
    `Bench 8 — the avatar list at 5,000 avatars (${db})`,
    `\`GET /api/avatar/list\` of one customer with ${results.map((r) => r.size).join(' and then ')} avatars, requests one after another
from a plain HTTP client that accepts brotli (${RUNS} per figure). Peer in the same run, same database: the
list before decision 211 (every avatar whole, secrets decrypted for the masks), through a bare route
with the product's \`toAvatar\` (${PEER_RUNS} requests). Before timing, at each size, ${checked}; a difference fails the bench. Goals at 5,000, for the first page (what the portal asks): p99 ≤ ${P99_GOAL_MS} ms, ≤ ${BYTES_GOAL_KB} KB as sent.

${table(['avatars', 'request', 'p50 (ms)', 'p99 (ms)', 'sent', 'uncompressed'], rows)}

Growth ${growth}. In short, ${ratio}.
First page at ${big.size}: p99 ${f(big.first.p99)} ms (${verdict(p99Met)}); ${f(big.first.sentKb)} KB as sent, ${f(big.first.rawKb)} KB uncompressed (${verdict(bytesMet)}). Search p99 ${f(big.search.p99)} ms, last page p99 ${f(big.last.p99)} ms.

    node --import tsx bench/avatar-list-scale.ts
    BENCH_DATABASE_URL=postgres://… node --import tsx bench/avatar-list-scale.ts`,
  );
  if (!p99Met || !bytesMet) process.exitCode = 1;
}

await main();
