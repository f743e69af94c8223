// Echo round trip per message through the conversation protocol (user_text → echo engine →
// assistant_done) against a bare `ws` echo server on the same machine, interleaved in one run.
//
//   node --import tsx bench/echo-roundtrip.ts        (BENCH_MESSAGES=500 for more)
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { ms, pct, startBenchServer, Turns } from './conversation-support';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 300);

async function main(): Promise<void> {
  const bare = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  bare.on('connection', (ws) => ws.on('message', (d) => ws.send(d)));
  await new Promise((r) => bare.once('listening', r));
  const client = new WebSocket(`ws://127.0.0.1:${(bare.address() as AddressInfo).port}`);
  await new Promise((r) => client.once('open', r));
  const bareTrip = () =>
    new Promise<number>((resolve) => {
      const t0 = performance.now();
      client.once('message', () => resolve(performance.now() - t0));
      client.send(JSON.stringify({ type: 'user_text', text: 'hello' }));
    });

  const server = await startBenchServer({ echo: { kind: 'echo' } });
  const turns = new Turns(server.host, 'echo');
  for (let i = 0; i < 30; i++) {
    await bareTrip();
    await turns.turn('hello');
  }
  const peer: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    peer.push(await bareTrip());
    ours.push((await turns.turn('hello')).done);
  }
  turns.close();
  console.log(`echo-roundtrip: ${MESSAGES} messages, interleaved`);
  console.log(`  peer (bare ws echo server):                 p50 ${ms(pct(peer, 50))}  p99 ${ms(pct(peer, 99))}`);
  console.log(`  conversation echo (user_text → done):       p50 ${ms(pct(ours, 50))}  p99 ${ms(pct(ours, 99))}`);
  console.log(`  ratio (ours / peer): p50 ${(pct(ours, 50) / pct(peer, 50)).toFixed(1)}x  p99 ${(pct(ours, 99) / pct(peer, 99)).toFixed(1)}x`);
  client.close();
  bare.close();
  await server.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
