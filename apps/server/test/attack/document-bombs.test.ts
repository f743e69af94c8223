// Document bombs (issue 20, finding 2): a DOCX whose document.xml inflates to 100 MB, the same
// with sizes declared tiny, one compressed a thousand to one, and a 64 KB PDF whose pages draw
// one huge content stream. Each must end `failed` with a clear message, only its own item, while
// the server answers /api/health within a second throughout (an explicit bound of the issue,
// not a benchmark). A crashed reading counts, and a retry does not reset the count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWLEDGE_TEXT_MAX_CHARS } from '@parla/shared/schemas/knowledge';
import { makeDocx } from '../../src/modules/knowledge/knowledge.fixtures';
import { EXTRACT_MEMORY, EXTRACT_TIMEOUT } from '../../src/modules/knowledge/knowledge.extract-runner';
import { kbClient, uploadKnowledgeFile, type Kb } from '../knowledge-requests';
import { CRASHED_TOO_OFTEN, startKnowledgeWorker, type KnowledgeWorker } from '../../src/modules/knowledge/knowledge.worker';
import { DOCX_DAMAGED, DOCX_RATIO, DOCX_TOO_LARGE } from '../../src/modules/knowledge/knowledge.zip-guard';
import { createCustomer, type TestAccount } from '../accounts';
import { createTestServer, type TestServer } from '../harness';
import { docxBomb, heavyPdf } from './document-bombs';

const LIMITS = { timeMs: 15_000, heapMb: 128, rssMb: 512 };

let server: TestServer;
let worker: KnowledgeWorker;
let base: string;
let account: TestAccount;
let kb: Kb;

beforeAll(async () => {
  server = await createTestServer();
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000, extractLimits: LIMITS });
  base = await server.listen();
  account = await createCustomer(server, 'bomber');
  kb = await kbClient(server, account);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

/**
 * Asks /api/health over a real socket, one request after another, until stopped; reports the
 * longest round (request plus the short pause), which a blocked event loop would stretch.
 */
function watchHealth() {
  let stop = false;
  let longest = 0;
  let answers = 0;
  const loop = (async () => {
    while (!stop) {
      const started = performance.now();
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) });
      if (res.status === 200) answers++;
      await new Promise((r) => setTimeout(r, 50));
      longest = Math.max(longest, performance.now() - started - 50);
    }
  })();
  return {
    async stop() {
      stop = true;
      await loop;
      return { longest, answers };
    },
  };
}

const upload = (name: string, data: Buffer, type?: string) => uploadKnowledgeFile(server, account, name, data, type);

async function itemsOf(collection: string): Promise<{ id: string; name: string; status: string; fail_reason: string | null }[]> {
  const res = await kb('GET', `/kb/v1/collections/${collection}/items`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('document bombs', () => {
  it('fails each bomb with a clear message, indexes the honest files beside them, and answers /api/health within a second throughout', async () => {
    const col = (await kb('POST', '/kb/v1/collections', { name: 'Bombs', language: 'en' })).json().id as string;
    const files = [
      { name: 'Inflates to 100 MB', file: await upload('bomb.docx', docxBomb(100)), reason: DOCX_TOO_LARGE },
      { name: 'Declares 4 KB, inflates to 100 MB', file: await upload('liar.docx', docxBomb(100, 4096)), reason: DOCX_DAMAGED },
      { name: 'A thousand to one', file: await upload('dense.docx', docxBomb(40)), reason: DOCX_RATIO },
      {
        name: 'Heavy PDF',
        file: await upload('heavy.pdf', heavyPdf(300, 400_000), 'application/pdf'),
        reason: [EXTRACT_MEMORY, EXTRACT_TIMEOUT(LIMITS)],
      },
      { name: 'Honest DOCX', file: await upload('honest.docx', makeDocx(['Our shop opens at nine every weekday.'])), reason: null },
    ];
    const watch = watchHealth();
    for (const f of files) {
      const res = await kb('POST', `/kb/v1/collections/${col}/items`, { name: f.name, knowledge_type: { file: f.file } });
      expect(res.statusCode, res.body).toBe(200);
    }
    await kb('POST', `/kb/v1/collections/${col}/items`, {
      name: 'Honest text',
      knowledge_type: { text: { content: 'Deliveries leave every Tuesday.' } },
    });
    await worker.drain();
    const { longest, answers } = await watch.stop();

    const rows = await itemsOf(col);
    for (const f of files) {
      const row = rows.find((r) => r.name === f.name)!;
      if (f.reason === null) expect(row, f.name).toMatchObject({ status: 'ready', fail_reason: null });
      else {
        expect(row.status, f.name).toBe('failed');
        expect(Array.isArray(f.reason) ? f.reason : [f.reason], f.name).toContain(row.fail_reason);
      }
    }
    expect(rows.find((r) => r.name === 'Honest text')!.status).toBe('ready');
    expect(answers).toBeGreaterThan(10);
    expect(longest, 'slowest /api/health round, ms').toBeLessThan(1000);
    // The server's own heap never held the inflated document.
    expect(process.memoryUsage().heapUsed).toBeLessThan(1024 * 1024 * 1024);
  }, 240_000);

  it('counts a crashed reading against the file, and a retry does not reset the count', async () => {
    const col = (await kb('POST', '/kb/v1/collections', { name: 'Crashes' })).json().id as string;
    const file = await upload('again.pdf', heavyPdf(300, 400_000), 'application/pdf');
    const item = (await kb('POST', `/kb/v1/collections/${col}/items`, { name: 'Heavy', knowledge_type: { file } })).json().id as string;
    const watch = watchHealth();
    const reasons: (string | null)[] = [];
    for (let round = 0; round < 4; round++) {
      if (round > 0) expect((await kb('POST', `/kb/v1/items/${item}/retry`)).statusCode).toBe(200);
      await worker.drain();
      const row = (await itemsOf(col))[0]!;
      expect(row.status).toBe('failed');
      reasons.push(row.fail_reason);
    }
    const { longest } = await watch.stop();
    expect(
      reasons.slice(0, 3).every((r) => r === EXTRACT_MEMORY || r === EXTRACT_TIMEOUT(LIMITS)),
      reasons.join(' / '),
    ).toBe(true);
    expect(reasons[3]).toBe(CRASHED_TOO_OFTEN);
    const stored = await server.ctx.db.selectFrom('knowledge_items').select(['crashes']).where('id', '=', item).executeTakeFirstOrThrow();
    expect(stored.crashes).toBe(3);
    expect(longest, 'slowest /api/health round, ms').toBeLessThan(1000);
  }, 240_000);

  it('reads a text item of markup bombs (unclosed brackets, tags and comments) in linear time: ready, /api/health within a second', async () => {
    const col = (await kb('POST', '/kb/v1/collections', { name: 'Markup bombs' })).json().id as string;
    const size = KNOWLEDGE_TEXT_MAX_CHARS - 16;
    const bombs = {
      Brackets: '[word '.repeat(size / 6),
      'Link openers': '[word]['.repeat(size / 7),
      'Unclosed tags': '<td word '.repeat(size / 9),
      'Comment openers': '<!-- word '.repeat(size / 10),
    };
    const watch = watchHealth();
    for (const [name, content] of Object.entries(bombs)) {
      const res = await kb('POST', `/kb/v1/collections/${col}/items`, { name, knowledge_type: { text: { content } } });
      expect(res.statusCode, res.body).toBe(200);
    }
    await worker.drain();
    const { longest } = await watch.stop();
    const rows = await itemsOf(col);
    expect(rows.map((r) => [r.name, r.status]).sort()).toEqual(
      Object.keys(bombs)
        .map((n) => [n, 'ready'])
        .sort(),
    );
    expect(longest, 'slowest /api/health round, ms').toBeLessThan(1000);
  }, 240_000);
});
