// Bench 5, concurrent conversations: how many idle conversation sockets one server process holds
// and the memory each costs, against a bare `ws` server holding the same number of idle sockets.
// Each server runs in a child process of its own (so the clients' memory is not counted); the
// clients open the sockets in batches from several loopback addresses, each Parla socket sends
// its hello and waits for `ready` (an idle conversation); then the server is garbage-collected
// and its memory read. Goal: ≥ 5,000 sockets at ≤ 2.5× bare memory per socket (issue 37; was 3×).
// Peer check (issue 37): after the memory reading, a sample of the held sockets (CHECKED, spread
// over all of them) must still answer on both servers: the bare server echoes the frame sent, byte
// for byte; Parla's conversation (echo engine) answers `assistant_done` with the text sent. Any
// other answer, or none within 30 s, fails the bench.
//
//   node --import tsx bench/concurrent-sockets.ts            (BENCH_SOCKETS=5000)
//   BENCH_HEAP_SNAPSHOT=dir: each server writes a heap snapshot (dir/<kind>-<sockets>.heapsnapshot)
//   after each memory reading; `node bench/heap-classes.mjs a b` lists what grew between two.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import WebSocket, { WebSocketServer } from 'ws';
import { MAX_CONVERSATIONS_PER_IP } from '../packages/shared/src/schemas/conversation';
import { table, verdict, writeSection } from './report-support';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 5000);
const BATCH = 250;
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 1000);
const GOAL_SOCKETS = 5000;
const GOAL_RATIO = 2.5;
/** Held sockets asked to answer after the memory reading, on each server. */
const CHECKED = 20;
// Parla refuses more than MAX_CONVERSATIONS_PER_IP open conversations from one address (a limit
// of the product), so the clients spread over loopback source addresses (127.1.0.1, 127.1.0.2,
// …), a few sockets each, for both servers alike.
const PER_SOURCE = MAX_CONVERSATIONS_PER_IP - 1;
const SOURCES = Math.ceil(SOCKETS / PER_SOURCE);
const sourceAddress = (i: number) => {
  const k = Math.floor(i / PER_SOURCE) + 1;
  return `127.${1 + ((k >> 16) & 255)}.${(k >> 8) & 255}.${k & 255}`;
};

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}
type FromChild = { type: 'listening'; url: string } | { type: 'memory'; memory: Memory; sockets: number };

// ---- the child: one server, answering the parent's questions over IPC
async function child(kind: string): Promise<void> {
  let url: string;
  let count: () => number;
  if (kind === 'bare') {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    wss.on('connection', (ws) => ws.on('message', (d) => ws.send(d)));
    url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/`;
    count = () => wss.clients.size;
  } else {
    // The real app with the conversation runtime (bench/conversation-support.ts, echo engine).
    const support = (await import(String(new URL('./conversation-support.ts', import.meta.url)))) as {
      startBenchServer: (engines: Record<string, unknown>, allow: string[], dataDir: string) => Promise<{ host: string }>;
    };
    // On disk, as `npm start` runs the embedded database: in memory, every conversation's row
    // (and its index entries and WAL) would count as the socket's memory.
    const server = await support.startBenchServer({ echo: { kind: 'echo' } }, [], process.argv[4]!);
    url = `ws://${server.host}/ws/conversation?avatarId=echo`;
    count = () => -1;
  }
  const gc = (globalThis as { gc?: () => void }).gc!;
  let snapshots = 0;
  process.on('message', async (m: { type: string }) => {
    if (m.type !== 'memory') return;
    // What the sockets hold at rest: the least of readings over 6 s (each after garbage
    // collection). Parla accounts every open conversation every 5 s (runtime.tickAll), and a
    // reading taken during that pass also counts its passing objects (3 KB a socket in one run).
    let mem: NodeJS.MemoryUsage | null = null;
    for (let reading = 0; reading < 4; reading++) {
      if (reading) await new Promise((r) => setTimeout(r, 2000));
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((r) => setTimeout(r, 200));
      }
      const now = process.memoryUsage();
      if (!mem || now.heapUsed + now.external < mem.heapUsed + mem.external) mem = now;
    }
    if (!mem) return;
    const dir = process.env.BENCH_HEAP_SNAPSHOT;
    if (dir) writeHeapSnapshot(join(dir, `${kind}-${snapshots++}.heapsnapshot`));
    process.send!({
      type: 'memory',
      sockets: count(),
      memory: { rss: mem.rss, heapUsed: mem.heapUsed, external: mem.external, arrayBuffers: mem.arrayBuffers },
    } satisfies FromChild);
  });
  process.send!({ type: 'listening', url } satisfies FromChild);
}

// ---- the parent
function start(
  kind: 'bare' | 'parla',
): Promise<{ proc: ChildProcess; url: string; memory: () => Promise<{ memory: Memory; sockets: number }> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parla-sockets-'));
  const proc = fork(fileURLToPath(import.meta.url), ['--child', kind, dataDir], {
    execArgv: ['--import', 'tsx', '--expose-gc', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<FromChild>((resolve, reject) => {
      proc.once('message', (m) => resolve(m as FromChild));
      proc.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code})`)));
    });
  proc.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  return next().then((first) => ({
    proc,
    url: (first as { url: string }).url,
    memory: async () => {
      proc.send({ type: 'memory' });
      const m = (await next()) as { memory: Memory; sockets: number };
      return m;
    },
  }));
}

async function open(
  url: string,
  n: number,
  conversation: boolean,
): Promise<{ sockets: WebSocket[]; failed: number; reasons: Map<string, number> }> {
  const sockets: WebSocket[] = [];
  const reasons = new Map<string, number>();
  let failed = 0;
  for (let i = 0; i < n; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => {
      const localAddress = sourceAddress(i + j);
      return new Promise<WebSocket | null>((resolve) => {
        const ws = new WebSocket(url, { localAddress, perMessageDeflate: false });
        const fail = (why: string) => {
          reasons.set(why, (reasons.get(why) ?? 0) + 1);
          ws.terminate();
          resolve(null);
        };
        const timer = setTimeout(() => fail('no ready within 30 s'), 30_000);
        ws.once('error', (e) => (clearTimeout(timer), fail(e.message.slice(0, 60))));
        ws.once('close', (code) => (clearTimeout(timer), fail(`closed ${code}`)));
        const held = () => {
          clearTimeout(timer);
          ws.removeAllListeners('close');
          ws.removeAllListeners('error');
          ws.removeAllListeners('message');
          ws.on('error', () => {});
          resolve(ws);
        };
        ws.once('open', () => {
          if (!conversation) return held();
          ws.on('message', (d) => {
            if ((JSON.parse(String(d)) as { type: string }).type === 'ready') held();
          });
          ws.send(JSON.stringify({ type: 'hello', deviceId: `bench-${i + j}` }));
        });
      });
    });
    for (const ws of await Promise.all(batch)) {
      if (ws) sockets.push(ws);
      else failed++;
    }
  }
  return { sockets, failed, reasons };
}

/** A sample of the held sockets answers what was sent: the bare server the frame itself, Parla
 *  an assistant_done with the text (issue 37). Throws on any other answer. */
class UnequalAnswer extends Error {}

async function checkAnswers(kind: 'bare' | 'parla', sockets: WebSocket[]): Promise<number> {
  const open = sockets.filter((s) => s.readyState === WebSocket.OPEN);
  if (!open.length) throw new UnequalAnswer(`${kind}: no held socket is open to answer`);
  const step = Math.max(1, Math.floor(open.length / CHECKED));
  const sample = open.filter((_, i) => i % step === 0).slice(0, CHECKED);
  await Promise.all(
    sample.map(
      (ws, k) =>
        new Promise<void>((resolve, reject) => {
          const text = `check ${k}`;
          const frame = JSON.stringify({ type: 'user_text', text });
          const timer = setTimeout(() => reject(new UnequalAnswer(`${kind}: held socket ${k} did not answer within 30 s`)), 30_000);
          ws.on('message', (d) => {
            if (kind === 'bare') {
              clearTimeout(timer);
              if (String(d) === frame) resolve();
              else reject(new UnequalAnswer(`the bare server answered ${String(d)} to ${frame}`));
              return;
            }
            const m = JSON.parse(String(d)) as { type: string; text?: string };
            if (m.type !== 'assistant_done') return;
            clearTimeout(timer);
            if (m.text === text) resolve();
            else reject(new UnequalAnswer(`Parla answered ${JSON.stringify(m.text)} to ${JSON.stringify(text)}`));
          });
          ws.send(frame);
        }),
    ),
  );
  return sample.length;
}

async function measure(kind: 'bare' | 'parla') {
  const server = await start(kind);
  // Warm-up, both servers alike: WARM_UP sockets opened and closed first, so the reading before
  // holds the compiled code and one-time growth (the JIT's, the database's first pages) that
  // opening sockets brings once, and the difference is what the open sockets themselves hold.
  const warm = await open(server.url, WARM_UP, kind === 'parla');
  for (const s of warm.sockets) s.close();
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await server.memory();
  const t0 = performance.now();
  const { sockets, failed, reasons } = await open(server.url, SOCKETS, kind === 'parla');
  const openMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 1000));
  const held = await server.memory();
  // Still open after a while (idle sockets are not dropped)?
  const alive = sockets.filter((s) => s.readyState === WebSocket.OPEN).length;
  let checked: number;
  try {
    checked = await checkAnswers(kind, sockets);
  } finally {
    for (const s of sockets) s.terminate();
    server.proc.kill();
  }
  const n = Math.max(1, sockets.length);
  return {
    kind,
    held: sockets.length,
    alive,
    checked,
    failed,
    reasons,
    openMs,
    rssPerSocket: (held.memory.rss - idle.memory.rss) / n,
    heapPerSocket: (held.memory.heapUsed + held.memory.external - idle.memory.heapUsed - idle.memory.external) / n,
    heapUsedPerSocket: (held.memory.heapUsed - idle.memory.heapUsed) / n,
    externalPerSocket: (held.memory.external - idle.memory.external) / n,
    rss: held.memory.rss,
  };
}

async function main(): Promise<void> {
  const peer = await measure('bare');
  let ours: Awaited<ReturnType<typeof measure>> | null = null;
  let why = '';
  try {
    ours = await measure('parla');
  } catch (err) {
    if (err instanceof UnequalAnswer) throw err; // a wrong answer fails the bench
    why = (err as Error).message;
  }
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  console.log(`concurrent-sockets: ${SOCKETS} idle sockets per server, from ${SOURCES} loopback addresses`);
  const line = (label: string, r: typeof peer) =>
    console.log(
      `  ${label.padEnd(46)} held ${String(r.held).padStart(5)} (open after 1 s: ${r.alive}, answered the check: ${r.checked}, failed ${r.failed}${r.reasons.size ? `: ${[...r.reasons].map(([k, v]) => `${k} ×${v}`).join(', ')}` : ''})  ${kb(r.rssPerSocket)} RSS / ${kb(r.heapPerSocket)} heap+external per socket (heap ${kb(r.heapUsedPerSocket)}, external ${kb(r.externalPerSocket)})  opened in ${(r.openMs / 1000).toFixed(1)} s`,
    );
  line('peer: bare ws server', peer);
  const rows: (string | number)[][] = [
    [
      'peer: bare `ws` server',
      peer.held,
      peer.failed,
      kb(peer.rssPerSocket),
      kb(peer.heapPerSocket),
      `${(peer.openMs / 1000).toFixed(1)} s`,
    ],
  ];
  let ratio = NaN;
  if (ours) {
    line('Parla: WS /ws/conversation, idle conversations', ours);
    // The goal is judged on the JavaScript heap and external memory after garbage collection,
    // which are the server's own per-socket objects. RSS is printed beside them but is not a
    // fair per-socket figure: Parla's idle process has freed pages from its start (migrations,
    // the first requests) that the sockets' objects reuse, so RSS grew less than the heap did
    // (0.36x "per socket" in one run).
    ratio = ours.heapPerSocket / peer.heapPerSocket;
    console.log(
      `  ratio (heap + external per socket, ours / peer): ${ratio.toFixed(2)}x (RSS ${(ours.rssPerSocket / peer.rssPerSocket).toFixed(2)}x)   goal ≥ ${GOAL_SOCKETS} sockets: ${verdict(ours.held >= GOAL_SOCKETS)}, ≤ ${GOAL_RATIO}x: ${verdict(ratio <= GOAL_RATIO)}`,
    );
    rows.push([
      'Parla: `WS /ws/conversation`, idle conversations',
      ours.held,
      ours.failed,
      kb(ours.rssPerSocket),
      kb(ours.heapPerSocket),
      `${(ours.openMs / 1000).toFixed(1)} s`,
    ]);
  } else {
    console.log(`  Parla: not measured — ${why}   goal: ${verdict(false)}`);
  }
  writeSection(
    'concurrent-sockets',
    'Bench 5 — concurrent conversations',
    `${SOCKETS} idle sockets opened against one server process (its own child process, memory read after
garbage collection, after ${WARM_UP} sockets opened and closed to warm the server up), from ${SOURCES} loopback source addresses in batches of ${BATCH}; each Parla socket is a
conversation that said hello and got \`ready\`. PGlite runs on disk in a temporary data directory, as \`npm start\` runs it (in memory, each
conversation's row would count as the socket's memory). Goal: ≥ ${GOAL_SOCKETS} sockets at ≤ ${GOAL_RATIO}× the bare
server's memory per socket, judged on heap + external memory after garbage collection (RSS is shown but
is not a fair per-socket figure: the idle process's freed pages are reused by the sockets' objects).
Answers checked after the memory reading: ${CHECKED} held sockets of each server, spread over all of them,
must answer what was sent (the bare server the frame, byte for byte; Parla \`assistant_done\` with the
text sent); a difference fails the bench.

${table(['server', 'sockets held', 'failed', 'RSS per socket', 'heap + external per socket', 'time to open all'], rows)}

${ours ? `Ratio (heap + external per socket) ${ratio.toFixed(2)}× (RSS ${(ours.rssPerSocket / peer.rssPerSocket).toFixed(2)}×): ${verdict(ours.held >= GOAL_SOCKETS && ratio <= GOAL_RATIO)}.` : `Parla not measured: ${why} (${verdict(false)}).`}`,
  );
}

if (process.argv[2] === '--child') {
  void child(process.argv[3]!);
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
