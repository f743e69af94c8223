// Echo round trip per message through the conversation protocol (user_text → echo engine →
// assistant_done) against a bare `ws` echo server on the same machine, interleaved in one run.
// Goal: at most 10× the bare server's p50.
//
//   node --import tsx bench/echo-roundtrip.ts        (BENCH_MESSAGES=500 for more)
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { ms, startBenchServer, Turns } from './conversation-support';
import { pct, table, verdict, writeSection } from './report-support';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 300);
const GOAL = 10;

async function main(): Promise<void> {
  const bare = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  bare.on('connection', (ws) => ws.on('message', (d) => ws.send(d)));
  await new Promise((r) => bare.once('listening', r));
  const client = new WebSocket(`ws://127.0.0.1:${(bare.address() as AddressInfo).port}`);
  await new Promise((r) => client.once('open', r));
  // Each answer is checked (issue 37): the bare server's echo is the frame sent, byte for byte;
  // Parla's assistant_done says the text sent. A difference fails the bench.
  const frame = JSON.stringify({ type: 'user_text', text: 'hello' });
  const bareTrip = () =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      client.once('message', (d) => {
        const t = performance.now() - t0;
        if (String(d) !== frame) reject(new Error(`the bare server answered ${String(d)}`));
        resolve(t);
      });
      client.send(frame);
    });
  const ourTrip = async () => {
    const r = await turns.turn('hello');
    if (r.text !== 'hello') throw new Error(`Parla answered ${JSON.stringify(r.text)} for "hello"`);
    return r;
  };

  const server = await startBenchServer({ echo: { kind: 'echo' } });
  const turns = new Turns(server.host, 'echo');
  for (let i = 0; i < 30; i++) {
    await bareTrip();
    await ourTrip();
  }
  const peer: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    peer.push(await bareTrip());
    ours.push((await ourTrip()).done);
  }
  turns.close();
  console.log(`echo-roundtrip: ${MESSAGES} messages, interleaved`);
  console.log(`  peer (bare ws echo server):                 p50 ${ms(pct(peer, 50))}  p99 ${ms(pct(peer, 99))}`);
  console.log(`  conversation echo (user_text → done):       p50 ${ms(pct(ours, 50))}  p99 ${ms(pct(ours, 99))}`);
  const ratio = pct(ours, 50) / pct(peer, 50);
  const ratio99 = pct(ours, 99) / pct(peer, 99);
  console.log(
    `  ratio (ours / peer): p50 ${ratio.toFixed(1)}x  p99 ${ratio99.toFixed(1)}x   goal ≤ ${GOAL}x p50: ${verdict(ratio <= GOAL)}`,
  );
  const f = (v: number) => v.toFixed(3);
  writeSection(
    'echo-roundtrip',
    'Bench 3 — echo round trip',
    `One message through the conversation socket (\`user_text\` → session → echo engine → \`assistant_done\`)
against a bare \`ws\` echo server on the same machine; ${MESSAGES} messages, the two interleaved. Goal: ≤ ${GOAL}× the
peer at p50.

${table(
  ['', 'p50 (ms)', 'p99 (ms)'],
  [
    ['peer: bare ws echo', f(pct(peer, 50)), f(pct(peer, 99))],
    ['Parla: conversation echo', f(pct(ours, 50)), f(pct(ours, 99))],
  ],
)}

Ratio ${ratio.toFixed(1)}× at p50 (${ratio99.toFixed(1)}× at p99): ${verdict(ratio <= GOAL)}.`,
  );
  client.close();
  bare.close();
  await server.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
