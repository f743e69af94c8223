// Bench 13, the cost of a text turn (issue 37 item 2): Parla's conversation socket (echo engine)
// against a bare `ws` echo server, each in a child process of its own, in the same run.
// 1. Server CPU per turn: the same number of conversations send the same number of text turns
//    one after another (Parla: user_text → assistant_done; bare: one frame → its echo); the
//    server's process.cpuUsage() before and after. Goal: ≤ 5× the bare server's.
// 2. Concurrent conversations at one turn every 2.5 s each (random phases), levels rising until
//    p95 of the turn time passes 100 ms: the largest level that holds, for each server.
//    Goal: 1,000 conversations on Parla's one process.
// Peer check: each Parla turn's assistant_done text must equal the text sent (the echo), each
// bare echo must equal the frame sent; any difference fails the bench.
//
//   node --import tsx bench/turn-cost.ts   (BENCH_LEVELS=250,500,1000,1500 BENCH_LEVEL_S=10
//                                            BENCH_CPU_PROF=dir: the Parla child writes a .cpuprofile;
//                                            BENCH_HOLDS=1: every 5 s, the statements that held
//                                            PGlite's connection over 8 ms, by statement)
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { MAX_CONVERSATIONS_PER_IP } from '../packages/shared/src/schemas/conversation';
import { pct, table, verdict, writeSection } from './report-support';

const CPU_CONVERSATIONS = 50;
const CPU_TURNS_EACH = Number(process.env.BENCH_TURNS_EACH ?? 20);
const LEVELS = (process.env.BENCH_LEVELS ?? '250,500,1000,1500').split(',').map(Number);
const LEVEL_S = Number(process.env.BENCH_LEVEL_S ?? 10);
const PERIOD_MS = 2500;
const GOAL_CPU = 5;
const GOAL_LEVEL = 1000;
const GOAL_P95_MS = 100;
const TEXT = 'hello there, how are you today?';
const PER_SOURCE = MAX_CONVERSATIONS_PER_IP - 1;
let nextSource = 0;
/** A fresh loopback source address every few sockets (Parla limits open conversations per IP). */
const sourceAddress = () => {
  const k = Math.floor(nextSource++ / PER_SOURCE) + 1;
  return `127.${2 + ((k >> 16) & 255)}.${(k >> 8) & 255}.${k & 255}`;
};

type Kind = 'bare' | 'parla';
interface Cpu {
  user: number;
  system: number;
}

// ---- the child: one server; answers the parent's 'cpu' and 'exit' over IPC
async function child(kind: Kind): Promise<void> {
  let url: string;
  let close: () => Promise<void> = async () => undefined;
  if (kind === 'bare') {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    wss.on('connection', (ws) => ws.on('message', (d, binary) => ws.send(d, { binary })));
    url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/`;
  } else {
    const support = (await import(String(new URL('./conversation-support.ts', import.meta.url)))) as {
      startBenchServer: (engines: Record<string, unknown>) => Promise<{ host: string; close(): Promise<void> }>;
    };
    const server = await support.startBenchServer({ echo: { kind: 'echo' } });
    url = `ws://${server.host}/ws/conversation?avatarId=echo`;
    close = server.close;
  }
  process.on('message', (m: { type: string }) => {
    if (m.type === 'cpu') process.send!({ type: 'cpu', cpu: process.cpuUsage() });
    if (m.type === 'exit') void close().finally(() => process.exit(0));
  });
  process.send!({ type: 'listening', url });
}

// ---- the parent
interface Server {
  proc: ChildProcess;
  url: string;
  cpu(): Promise<Cpu>;
  exit(): Promise<void>;
}

function start(kind: Kind): Promise<Server> {
  const prof = kind === 'parla' && process.env.BENCH_CPU_PROF;
  const proc = fork(fileURLToPath(import.meta.url), ['--child', kind], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096', ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() => new Promise<T>((resolve) => proc.once('message', (m) => resolve(m as T)));
  return next<{ url: string }>().then(({ url }) => ({
    proc,
    url,
    cpu: async () => {
      proc.send({ type: 'cpu' });
      return (await next<{ cpu: Cpu }>()).cpu;
    },
    exit: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.send({ type: 'exit' });
      }),
  }));
}

/** One client socket: a conversation (hello, then ready) or a bare socket; sends a turn and
 *  resolves with its time once the answer is whole, checking the answer. */
class Client {
  private pending: { t0: number; resolve: (ms: number) => void; reject: (e: Error) => void } | null = null;
  private constructor(
    private readonly ws: WebSocket,
    private readonly kind: Kind,
  ) {
    ws.on('message', (d) => {
      const p = this.pending;
      if (!p) return;
      const s = String(d);
      // Only the end of the turn is parsed: the client must not be the bottleneck.
      if (kind === 'parla' && !s.includes('"assistant_done"')) return;
      const text = kind === 'parla' ? (JSON.parse(s) as { text: string }).text : (JSON.parse(s) as { text: string }).text;
      this.pending = null;
      if (text !== TEXT) p.reject(new Error(`${kind} answered ${JSON.stringify(text)} for ${JSON.stringify(TEXT)}`));
      else p.resolve(performance.now() - p.t0);
    });
  }

  static open(url: string, kind: Kind): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { localAddress: sourceAddress(), perMessageDeflate: false });
      const timer = setTimeout(() => reject(new Error(`${kind}: no ready within 60 s`)), 60_000);
      ws.once('error', (e) => (clearTimeout(timer), reject(e)));
      ws.once('open', () => {
        if (kind === 'bare') return (clearTimeout(timer), resolve(new Client(ws, kind)));
        const onReady = (d: WebSocket.RawData) => {
          if (!String(d).includes('"ready"')) return;
          ws.off('message', onReady);
          clearTimeout(timer);
          resolve(new Client(ws, kind));
        };
        ws.on('message', onReady);
        ws.send(JSON.stringify({ type: 'hello', deviceId: `bench-${nextSource}` }));
      });
    });
  }

  turn(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending = { t0: performance.now(), resolve, reject };
      this.ws.send(JSON.stringify({ type: 'user_text', text: TEXT }));
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

async function openMany(server: Server, kind: Kind, n: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < n; i += 100)
    clients.push(...(await Promise.all(Array.from({ length: Math.min(100, n - i) }, () => Client.open(server.url, kind)))));
  return clients;
}

const cpuMs = (a: Cpu, b: Cpu) => (b.user - a.user + b.system - a.system) / 1000;

async function cpuPerTurn(server: Server, kind: Kind): Promise<number> {
  const clients = await openMany(server, kind, CPU_CONVERSATIONS);
  for (const c of clients) await c.turn(); // warm-up
  const before = await server.cpu();
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < CPU_TURNS_EACH; i++) await c.turn();
    }),
  );
  const after = await server.cpu();
  for (const c of clients) c.close();
  return cpuMs(before, after) / (CPU_CONVERSATIONS * CPU_TURNS_EACH);
}

/** One level: n conversations, one turn every 2.5 s each for LEVEL_S seconds. */
async function level(server: Server, kind: Kind, n: number) {
  const clients = await openMany(server, kind, n);
  await new Promise((r) => setTimeout(r, 1000));
  const times: number[] = [];
  const cpu0 = await server.cpu();
  const t0 = performance.now();
  const end = t0 + LEVEL_S * 1000;
  await Promise.all(
    clients.map(async (c) => {
      let at = t0 + Math.random() * PERIOD_MS;
      while (at < end) {
        const wait = at - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        times.push(await c.turn());
        at += PERIOD_MS;
      }
    }),
  );
  const cores = cpuMs(cpu0, await server.cpu()) / (performance.now() - t0);
  for (const c of clients) c.close();
  await new Promise((r) => setTimeout(r, 2000));
  return { n, turns: times.length, p50: pct(times, 50), p95: pct(times, 95), cores, load: loadavg()[0]! };
}

async function levels(server: Server, kind: Kind) {
  const rows: Awaited<ReturnType<typeof level>>[] = [];
  for (const n of LEVELS) {
    const r = await level(server, kind, n);
    rows.push(r);
    console.log(
      `  ${kind.padEnd(5)} ${String(n).padStart(5)} conversations: ${r.turns} turns, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, server ${r.cores.toFixed(2)} cores, load ${r.load.toFixed(1)}`,
    );
    if (r.p95 > GOAL_P95_MS) break;
  }
  return rows;
}

async function main(): Promise<void> {
  const load0 = loadavg()[0]!;
  const bare = await start('bare');
  const parla = await start('parla');
  const bareCpu = await cpuPerTurn(bare, 'bare');
  const parlaCpu = await cpuPerTurn(parla, 'parla');
  const ratio = parlaCpu / bareCpu;
  console.log(`turn-cost: ${CPU_CONVERSATIONS} conversations × ${CPU_TURNS_EACH} turns (load average ${load0.toFixed(1)} at the start)`);
  console.log(
    `  server CPU per turn: bare ${bareCpu.toFixed(3)} ms, Parla ${parlaCpu.toFixed(3)} ms: ${ratio.toFixed(1)}x  goal ≤ ${GOAL_CPU}x: ${verdict(ratio <= GOAL_CPU)}`,
  );
  const bareRows = await levels(bare, 'bare');
  const parlaRows = await levels(parla, 'parla');
  await Promise.all([bare.exit(), parla.exit()]);
  const held = (rows: typeof bareRows) => rows.filter((r) => r.p95 <= GOAL_P95_MS).reduce((m, r) => Math.max(m, r.n), 0);
  const heldParla = held(parlaRows);
  const heldBare = held(bareRows);
  console.log(
    `  largest level with p95 ≤ ${GOAL_P95_MS} ms: bare ${heldBare || 'none'}, Parla ${heldParla || 'none'}   goal ${GOAL_LEVEL}: ${verdict(heldParla >= GOAL_LEVEL)}`,
  );
  const f = (v: number) => v.toFixed(1);
  writeSection(
    'turn-cost',
    'Bench 13 — the cost of a text turn',
    `Parla's conversation socket (echo engine, PGlite in memory) against a bare \`ws\` echo server, each in its own
child process, same run; every answer checked (Parla's \`assistant_done\` text equals the text sent; the bare echo equals
its frame). Load average ${load0.toFixed(1)} at the start: the machine is shared, so absolute times read worse than on a quiet one.

Server CPU per text turn (${CPU_CONVERSATIONS} conversations × ${CPU_TURNS_EACH} turns): bare ${bareCpu.toFixed(3)} ms, Parla
${parlaCpu.toFixed(3)} ms, ${ratio.toFixed(1)}×; goal ≤ ${GOAL_CPU}×: ${verdict(ratio <= GOAL_CPU)}.

One turn every 2.5 s per conversation for ${LEVEL_S} s per level (levels rise until p95 passes ${GOAL_P95_MS} ms):

${table(
  ['server', 'conversations', 'turns', 'p50 (ms)', 'p95 (ms)', 'server cores busy', 'load average'],
  [
    ...bareRows.map((r) => ['bare ws', r.n, r.turns, f(r.p50), f(r.p95), r.cores.toFixed(2), f(r.load)]),
    ...parlaRows.map((r) => ['Parla', r.n, r.turns, f(r.p50), f(r.p95), r.cores.toFixed(2), f(r.load)]),
  ],
)}

Largest level that holds p95 ≤ ${GOAL_P95_MS} ms: bare ${heldBare || 'none'}, Parla ${heldParla || 'none'}; goal ${GOAL_LEVEL} on one process: ${verdict(heldParla >= GOAL_LEVEL)}.`,
  );
}

if (process.argv[2] === '--child') void child(process.argv[3] as Kind);
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
