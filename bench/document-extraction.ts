// Bench: the cost of reading one document in its own process (decision 405 and its amendment).
// Each kind (an HTML page, a DOCX, a PDF) is read BENCH_DOCS times (default 12) by the server's
// path, extractInChild (the child bundled once per process, plain Node, the reader's library
// loaded on demand), and by a peer in the same run: the same child script run as TypeScript
// through tsx, as every document was read before. Prints, per document, the wall time and the
// CPU time of the children (Linux: /proc/self/stat's cutime + cstime), and the ratio.
// Goal: the server's path ≤ 0.6× the peer's CPU per document (each kind).
// Peer check (issue 37): every read's answer (the text and the title) must equal the first answer
// of the server's path for that document, character for character, on both sides; a difference
// fails the bench.
//   node --import tsx bench/document-extraction.ts
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExtractJob } from '../apps/server/src/modules/knowledge/knowledge.extract-child';
import { extractInChild } from '../apps/server/src/modules/knowledge/knowledge.extract-runner';
import { extractChildScript } from '../apps/server/src/modules/knowledge/knowledge.extract-stage';
import { makeDocx, makePdf } from '../apps/server/src/modules/knowledge/knowledge.fixtures';
import { ROOT, table, verdict, writeSection } from './report-support';

const DOCS = Number(process.env.BENCH_DOCS ?? 12);
const GOAL = 0.6;
const CHILD_TS = join(ROOT, 'apps/server/src/modules/knowledge/knowledge.extract-child.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const html = Buffer.from(
  `<html><head><title>Pricing</title></head><body><nav>Home</nav><main>${'<p>The Commuter plan costs 899 EUR a year and covers every line of the network.</p>'.repeat(40)}</main></body></html>`,
);
const kinds: { name: string; job: ExtractJob }[] = [
  { name: 'HTML page', job: { kind: 'html', data: html } },
  {
    name: 'DOCX',
    job: {
      kind: 'docx',
      data: makeDocx(
        ['Delivery takes five working days.'],
        [
          ['Zone', 'Fee'],
          ['Lisbon', '0 EUR'],
        ],
      ),
    },
  },
  { name: 'PDF', job: { kind: 'pdf', data: makePdf(['Chain maintenance: oil the chain every two hundred kilometres.']) } },
];

/** CPU seconds of the waited-for children so far (utime + stime of children, clock ticks of 1/100 s). */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

type Answer = { text: string; title?: string };

/** The peer: the same child, as TypeScript through tsx. */
function throughTsx(job: ExtractJob): Promise<Answer> {
  const child = fork(CHILD_TS, [], {
    execArgv: ['--import', TSX],
    env: {},
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
  });
  return new Promise((resolve, reject) => {
    child.on('message', (m: { ready?: true; ok?: boolean; text?: string; title?: string }) => {
      if (m.ready) return void child.send(job);
      child.kill('SIGKILL');
      if (m.ok && typeof m.text === 'string') resolve({ text: m.text, ...(m.title ? { title: m.title } : {}) });
      else reject(new Error('the peer could not read the document'));
    });
    child.once('exit', () => reject(new Error('the peer exited without an answer')));
  });
}

/** The answer as compared: the text and the title, nothing else. */
const answerOf = (a: Answer) => JSON.stringify({ text: a.text, title: a.title ?? null });

async function measure(
  read: (job: ExtractJob) => Promise<Answer>,
  job: ExtractJob,
  expected: { answer: string | null },
  who: string,
): Promise<{ wall: number; cpu: number }> {
  const cpu0 = childrenCpu();
  const t0 = performance.now();
  for (let i = 0; i < DOCS; i++) {
    const answer = answerOf(await read(job));
    expected.answer ??= answer;
    if (answer !== expected.answer)
      throw new Error(`${who} read the document as ${answer.slice(0, 200)}, the server's path as ${expected.answer.slice(0, 200)}`);
  }
  // Let the last child be reaped, so its CPU time is counted.
  await new Promise((r) => setTimeout(r, 200));
  return { wall: (performance.now() - t0 - 200) / 1000 / DOCS, cpu: (childrenCpu() - cpu0) / DOCS };
}

await extractChildScript(); // bundled once per server process: not a document's cost
const rows: (string | number)[][] = [];
let worst = 0;
for (const { name, job } of kinds) {
  const expected = { answer: null as string | null };
  const ours = await measure((j) => extractInChild(j), job, expected, "the server's path");
  const peer = await measure(throughTsx, job, expected, 'the peer (through tsx)');
  const ratio = ours.cpu / peer.cpu;
  worst = Math.max(worst, ratio);
  rows.push([
    name,
    `${(ours.wall * 1000).toFixed(0)} ms`,
    `${ours.cpu.toFixed(3)} s`,
    `${(peer.wall * 1000).toFixed(0)} ms`,
    `${peer.cpu.toFixed(3)} s`,
    `${ratio.toFixed(2)}×`,
  ]);
  console.log(
    `${name}: ours ${(ours.wall * 1000).toFixed(0)} ms, ${ours.cpu.toFixed(3)} CPU-s; through tsx ${(peer.wall * 1000).toFixed(0)} ms, ${peer.cpu.toFixed(3)} CPU-s; CPU ratio ${ratio.toFixed(2)}x`,
  );
}
const met = worst <= GOAL;
console.log(
  `every answer equal (text and title, the server's path and through tsx); worst CPU ratio ${worst.toFixed(2)}x, goal ≤ ${GOAL}x: ${verdict(met)}`,
);
writeSection(
  'document-extraction',
  'Reading a document in its own process',
  `Each kind read ${DOCS} times by extractInChild (the child bundled once per server process, plain Node, the reader's library loaded on demand) and by the same child run as TypeScript through tsx (as before). Per document: wall time and the children's CPU time. Every answer is checked: the text and title each read gives equal the server's path's first answer for that document, character for character (a difference fails the bench).

${table(['document', 'ours: wall', 'ours: CPU', 'through tsx: wall', 'through tsx: CPU', 'CPU ratio'], rows)}

Worst CPU ratio ${worst.toFixed(2)}×, goal ≤ ${GOAL}×: ${verdict(met)}.

\`node --import tsx bench/document-extraction.ts\``,
);
