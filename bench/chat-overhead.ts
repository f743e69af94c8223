// Time to first token per turn through the conversation protocol (player → WS → session → LLM
// engine → SSE from the model → assistant_delta) against the same OpenAI-compatible stand-in
// called directly (HTTP + SSE to the first content chunk), interleaved in one run. Prints each
// side's p50/p99, the added time (p50/p99 of the per-pair difference) and the ratio.
// Goal: at most 2 ms added at p50 and 10 ms at p99.
// Peer check (issue 37): every turn, the direct call's streamed content (its content chunks joined)
// must equal Parla's assistant_done text for the same message, character for character; a
// difference fails the bench.
//
//   node --import tsx bench/chat-overhead.ts        (BENCH_TURNS=300 for more)
import { Agent, fetch } from 'undici';
import { startOpenAiStandIn, STAND_IN_KEY } from '../apps/server/test/stand-ins/runtime/openai';
import { ms, startBenchServer, Turns } from './conversation-support';
import { pct, table, verdict, writeSection } from './report-support';

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const GOAL_P50 = 2;
const GOAL_P99 = 10;

/** The time to the first content chunk and the streamed content (the chunks' `content` joined). */
async function direct(url: string, agent: Agent): Promise<{ first: number; text: string }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${STAND_IN_KEY}`, accept: 'text/event-stream' },
    body: JSON.stringify({ model: 'stand-in-model', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
  });
  const decoder = new TextDecoder();
  let buf = '';
  let first = -1;
  for await (const chunk of res.body!) {
    buf += decoder.decode(chunk as Uint8Array, { stream: true });
    if (first < 0 && /"content":"[^"]/.test(buf)) first = performance.now() - t0;
  }
  let text = '';
  for (const line of buf.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const event = JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string } }[] };
    text += event.choices?.[0]?.delta?.content ?? '';
  }
  return { first, text };
}

/** The peer's answer must be Parla's (issue 37). */
function check(peer: string, ours: string): void {
  if (peer !== ours) throw new Error(`the stand-in answered ${JSON.stringify(peer)} directly, Parla ${JSON.stringify(ours)}`);
}

async function main(): Promise<void> {
  const model = await startOpenAiStandIn();
  const server = await startBenchServer(
    {
      llm: {
        kind: 'llm',
        baseUrl: `${model.url}/v1`,
        apiKey: STAND_IN_KEY,
        model: 'stand-in-model',
        instructions: 'Be brief.',
        memory: '',
        sendHistory: false,
        tools: [],
      },
    },
    [model.allow],
  );
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const turns = new Turns(server.host, 'llm');
  for (let i = 0; i < 20; i++) {
    const d = await direct(model.url, agent);
    check(d.text, (await turns.turn('hello')).text);
  }
  const peer: number[] = [];
  const ours: number[] = [];
  const added: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const d = await direct(model.url, agent);
    const p = await turns.turn('hello');
    check(d.text, p.text);
    peer.push(d.first);
    ours.push(p.first);
    added.push(p.first - d.first);
  }
  turns.close();
  console.log(`chat-overhead: ${TURNS} turns, interleaved; every answer checked (direct content = Parla's assistant_done text)`);
  console.log(`  peer (stand-in called directly, first content chunk): p50 ${ms(pct(peer, 50))}  p99 ${ms(pct(peer, 99))}`);
  console.log(`  through the protocol (first assistant_delta):         p50 ${ms(pct(ours, 50))}  p99 ${ms(pct(ours, 99))}`);
  console.log(`  added time to first token per turn:                   p50 ${ms(pct(added, 50))}  p99 ${ms(pct(added, 99))}`);
  const ratio = pct(ours, 50) / pct(peer, 50);
  const f = (v: number) => v.toFixed(2);
  // One line per goal, each with its own figure and verdict (the ratio is information only).
  const goals = [
    `- Added at p50: ${f(pct(added, 50))} ms (goal ≤ ${GOAL_P50} ms): ${verdict(pct(added, 50) <= GOAL_P50)}.`,
    `- Added at p99: ${f(pct(added, 99))} ms (goal ≤ ${GOAL_P99} ms): ${verdict(pct(added, 99) <= GOAL_P99)}.`,
  ];
  console.log(`  ratio (ours / peer, p50): ${ratio.toFixed(2)}x (information)\n  ${goals.join('\n  ')}`);
  writeSection(
    'chat-overhead',
    'Bench 2 — chat turn overhead',
    `Time to first token of a turn through the player protocol (WebSocket → session → LLM engine → streamed
chat completion → first \`assistant_delta\`) against the same OpenAI-compatible stand-in called directly
(HTTP + SSE to the first content chunk); ${TURNS} turns, the two interleaved. Every turn is checked: the
stand-in's streamed content called directly equals Parla's \`assistant_done\` text, character for
character (a difference fails the bench). Goal: ≤ ${GOAL_P50} ms added at
p50 and ≤ ${GOAL_P99} ms at p99.

${table(
  ['', 'p50 (ms)', 'p99 (ms)'],
  [
    ['peer: stand-in called directly', f(pct(peer, 50)), f(pct(peer, 99))],
    ['Parla: through the protocol', f(pct(ours, 50)), f(pct(ours, 99))],
    ['added per turn (paired difference)', f(pct(added, 50)), f(pct(added, 99))],
  ],
)}

${goals.join('\n')}

The ratio of the two p50s, ${ratio.toFixed(2)}×, is information, not a goal.`,
  );
  await agent.close();
  await server.close();
  await model.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
