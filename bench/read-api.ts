// Bench 1, the read API: `GET /api/avatar/list` of a signed-in customer with 50 avatars (session
// check, one page of cards, online counts; decision 211) against bare Fastify routes that do the
// product's own work and nothing else (issue 37: an earlier peer read every column of every avatar
// and answered six times the bytes, which flattered the ratio):
//   - peer A calls the same list function (`listAvatars`) for the same owner, no session look-up;
//   - peer B also looks the session up with the same function the auth plugin uses (since
//     decision 017, through the process's session cache, as every request does).
// Both peers compress as Parla does (the same plugin), and every request asks for
// `accept-encoding: gzip, deflate, br, zstd` as Chromium does. Before measuring, each peer's
// answer is decompressed and compared with Parla's byte for byte; a difference fails the bench.
// autocannon in its own process, alternating rounds so that the shared machine's load falls on
// all three. Goal: Parla ≥ 0.7 × peer B's requests per second (the peer doing all of its work).
//
//   node --import tsx bench/read-api.ts          (BENCH_SECONDS=8 BENCH_ROUNDS=3 BENCH_CONNECTIONS=10)
//   BENCH_DATABASE_URL=postgres://... node --import tsx bench/read-api.ts
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { hashToken } from '../apps/server/src/lib/tokens';
import { listAvatars } from '../apps/server/src/modules/avatars/avatars.service';
import { findSessionUserCached } from '../apps/server/src/plugins/auth';
import { registerCompression } from '../apps/server/src/plugins/compression';
import { cannon, startApiServer, type CannonResult } from './api-support';
import { table, verdict, writeSection } from './report-support';

const AVATARS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const GOAL = 0.7;
/** What Chromium sends. */
const BROWSER_ENCODING = 'gzip, deflate, br, zstd';

async function body(url: string, headers: Record<string, string>): Promise<{ text: string; encoding: string; wire: number }> {
  const res = await fetch(url, { headers: { ...headers, 'accept-encoding': BROWSER_ENCODING } });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  // fetch decodes by itself; read the raw bytes again without it to know what went on the wire.
  const encoding = res.headers.get('content-encoding') ?? 'identity';
  const text = await res.text();
  const raw = await new Promise<Buffer>((resolve, reject) => {
    import('node:http')
      .then(({ request }) => {
        const req = request(url, { headers: { ...headers, 'accept-encoding': BROWSER_ENCODING } }, (r) => {
          const parts: Buffer[] = [];
          r.on('data', (c: Buffer) => parts.push(c));
          r.on('end', () => resolve(Buffer.concat(parts)));
        });
        req.on('error', reject);
        req.end();
      })
      .catch(reject);
  });
  const decoded = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
  if (decoded.toString('utf8') !== text) throw new Error(`${url}: the wire bytes do not decode to the body`);
  return { text, encoding, wire: raw.length };
}

async function main(): Promise<void> {
  const server = await startApiServer(AVATARS);
  const { ctx, ownerId } = server;

  const bare = Fastify({ logger: false });
  await registerCompression(bare);
  bare.get('/list', () => listAvatars(ctx, ownerId, {}));
  bare.get('/list-with-session', async (request, reply) => {
    const t = /\S+$/.exec(request.headers.authorization ?? '')?.[0];
    const user = t ? await findSessionUserCached(ctx, { tokenHash: hashToken(t) }) : null;
    if (!user) return reply.code(401).send({ status: 'ERROR' });
    return listAvatars(ctx, user.id, {});
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
  const auth = { authorization: server.authorization };
  const targets = [
    { name: 'peer A: same list function, no session look-up', url: `${bareBase}/list`, headers: auth },
    { name: 'peer B: same list function and session look-up (cached)', url: `${bareBase}/list-with-session`, headers: auth },
    { name: 'Parla: GET /api/avatar/list', url: `${server.url}/api/avatar/list`, headers: auth },
  ];

  // The peers must answer what Parla answers, byte for byte, compressed the same way.
  const answers = await Promise.all(targets.map((t) => body(t.url, t.headers)));
  const ours = answers[2]!;
  const listed = (JSON.parse(ours.text) as { agents: unknown[] }).agents.length;
  if (listed !== AVATARS) throw new Error(`the list answered ${listed} avatars`);
  answers.forEach((a, i) => {
    if (a.text !== ours.text)
      throw new Error(`${targets[i]!.name}: its answer differs from Parla's (${a.text.length} vs ${ours.text.length} chars)`);
    if (a.encoding !== ours.encoding) throw new Error(`${targets[i]!.name}: encoded ${a.encoding}, Parla ${ours.encoding}`);
  });

  const opts = { connections: CONNECTIONS, seconds: SECONDS };
  const withEncoding = (h: Record<string, string>) => ({ ...h, 'accept-encoding': BROWSER_ENCODING });
  for (const t of targets) await cannon(t.url, { ...opts, seconds: 2, headers: withEncoding(t.headers) });
  const results: CannonResult[][] = targets.map(() => []);
  for (let i = 0; i < ROUNDS; i++) {
    for (const [k, t] of targets.entries()) results[k]!.push(await cannon(t.url, { ...opts, headers: withEncoding(t.headers) }));
  }
  await bare.close();
  await server.close();

  const sum = (rs: CannonResult[]) => ({
    rps: rs.reduce((a, r) => a + r.rps, 0) / rs.length,
    p50: rs.reduce((a, r) => a + r.p50, 0) / rs.length,
    p99: Math.max(...rs.map((r) => r.p99)),
    bad: rs.reduce((a, r) => a + r.errors + r.non2xx, 0),
  });
  const [a, b, o] = results.map(sum) as [ReturnType<typeof sum>, ReturnType<typeof sum>, ReturnType<typeof sum>];
  const ratioA = o.rps / a.rps;
  const ratioB = o.rps / b.rps;
  const db = server.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const line = (name: string, s: ReturnType<typeof sum>) =>
    `  ${name.padEnd(52)} ${s.rps.toFixed(0).padStart(6)} req/s  p50 ${s.p50.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  errors ${s.bad}`;
  console.log(`read-api: ${AVATARS} avatars, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, ${db}`);
  console.log(
    `  every answer: ${ours.text.length} bytes of JSON, ${ours.wire} bytes as sent (${ours.encoding}), identical across the three`,
  );
  targets.forEach((t, i) => console.log(line(t.name, [a, b, o][i]!)));
  console.log(
    `  ratio against peer B (goal ≥ ${GOAL}x): ${ratioB.toFixed(2)}x ${verdict(ratioB >= GOAL)}; against peer A: ${ratioA.toFixed(2)}x`,
  );

  writeSection(
    'read-api',
    'Bench 1 — read API',
    `\`GET /api/avatar/list\` for a signed-in customer with ${AVATARS} avatars against bare Fastify routes on the same
${db} database that call the same list function (\`listAvatars\`), peer B after the same session look-up,
compressed by the same plugin. Every request asks \`accept-encoding: ${BROWSER_ENCODING}\` (Chromium's); each
peer's answer was checked equal to Parla's byte for byte before measuring: ${ours.text.length} bytes of JSON,
${ours.wire} bytes as sent (${ours.encoding}). autocannon (its own process), ${CONNECTIONS} connections,
${ROUNDS} alternating rounds of ${SECONDS} s. Goal: ≥ ${GOAL}× peer B's requests per second.

${table(
  ['', 'req/s', 'p50 (ms)', 'p99 (ms)', 'errors'],
  [
    [targets[0]!.name, a.rps.toFixed(0), a.p50.toFixed(1), a.p99.toFixed(1), a.bad],
    [targets[1]!.name, b.rps.toFixed(0), b.p50.toFixed(1), b.p99.toFixed(1), b.bad],
    [targets[2]!.name, o.rps.toFixed(0), o.p50.toFixed(1), o.p99.toFixed(1), o.bad],
  ],
)}

Ratio ${ratioB.toFixed(2)}× peer B (${ratioA.toFixed(2)}× peer A): ${verdict(ratioB >= GOAL)}.`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
