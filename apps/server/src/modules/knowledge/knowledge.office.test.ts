import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { makeDocx, makePptx, makeXlsx, makeZip } from './knowledge.fixtures';
import { PPTX_NOT_A_PRESENTATION } from './knowledge.office';
import { kbClient, kbToken, multipart, type Kb } from '../../../test/knowledge-requests';
import { startKnowledgeWorker, type KnowledgeWorker } from './knowledge.worker';

let server: TestServer;
let worker: KnowledgeWorker;
let alice: TestAccount;
let asAlice: Kb;

beforeAll(async () => {
  server = await createTestServer();
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  alice = await createCustomer(server, 'alice');
  asAlice = await kbClient(server, alice);
});

afterAll(async () => {
  await worker.stop();
  await server.close();
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

async function upload(name: string, data: Buffer) {
  const body = multipart('file', name, data);
  return server.inject({
    method: 'POST',
    url: '/kb/v1/files',
    appKey: null,
    headers: { ...body.headers, authorization: `Bearer ${await kbToken(server, alice)}` },
    payload: body.payload,
  });
}

async function addFile(id: string, name: string, file: unknown) {
  const res = await asAlice('POST', `/kb/v1/collections/${id}/items`, { name, knowledge_type: { file } });
  expect(res.statusCode, res.body).toBe(200);
  await worker.drain();
  return (await asAlice('GET', `/kb/v1/items/${(res.json() as { id: string }).id}/chunks`)).json() as {
    item: { status: string; fail_reason: string | null; chunk_count: number };
    chunks: { text: string }[];
  };
}

async function newCollection(): Promise<string> {
  return ((await asAlice('POST', '/kb/v1/collections', { name: 'Office', language: 'en' })).json() as { id: string }).id;
}

describe('XLSX and PPTX files', () => {
  it('reads an XLSX workbook with each sheet named and each row kept as one line, and finds a row', async () => {
    const id = await newCollection();
    const up = await upload(
      'prices.xlsx',
      makeXlsx([
        {
          name: 'Bikes',
          rows: [
            ['Model', 'Price'],
            ['Commuter', '899 EUR'],
            ['Cargo long tail', '1899 EUR'],
          ],
        },
        {
          name: 'Rentals',
          rows: [
            ['Day', '25 EUR'],
            ['Week', '120 EUR'],
          ],
        },
      ]),
    );
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().file_type).toBe(XLSX_TYPE);
    const detail = await addFile(id, 'Price list', up.json());
    expect(detail.item.status).toBe('ready');
    expect(detail.chunks.map((c) => c.text).join('\n')).toBe(
      'Sheet: Bikes\nModel | Price\nCommuter | 899 EUR\nCargo long tail | 1899 EUR\n\nSheet: Rentals\nDay | 25 EUR\nWeek | 120 EUR',
    );
    const hits = (await asAlice('POST', '/kb/v1/search', { collection_ids: [id], query: 'how much is a cargo long tail' })).json() as {
      text: string;
    }[];
    expect(hits[0]?.text).toContain('Cargo long tail | 1899 EUR');
  });

  it('reads a PPTX presentation slide by slide with its speaker notes, and finds a slide', async () => {
    const id = await newCollection();
    const up = await upload(
      'onboarding.pptx',
      makePptx([
        { text: ['Welcome to the workshop'], notes: 'Greet the new mechanics.' },
        { text: ['Safety first', 'Always wear gloves when bleeding hydraulic brakes'] },
      ]),
    );
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().file_type).toBe(PPTX_TYPE);
    const detail = await addFile(id, 'Onboarding', up.json());
    expect(detail.item.status).toBe('ready');
    expect(detail.chunks.map((c) => c.text).join('\n')).toBe(
      'Slide 1\nWelcome to the workshop\nNotes: Greet the new mechanics.\n\nSlide 2\nSafety first\nAlways wear gloves when bleeding hydraulic brakes',
    );
    const hits = (await asAlice('POST', '/kb/v1/search', { collection_ids: [id], query: 'gloves for hydraulic brakes?' })).json() as {
      text: string;
    }[];
    expect(hits[0]?.text).toContain('Always wear gloves');
  });

  it('fails a malformed workbook or presentation with a clear reason and stores none of its text', async () => {
    const id = await newCollection();
    const cases = [
      {
        name: 'broken.xlsx',
        data: makeZip([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook><sheets><sheet') }]),
        reason: 'The Excel (XLSX) document could not be read.',
      },
      { name: 'letter.pptx', data: makeDocx(['Not slides at all']), reason: PPTX_NOT_A_PRESENTATION },
      {
        name: 'cut.xlsx',
        data: makeXlsx([{ name: 'A', rows: [['x']] }]).subarray(0, 200),
        reason: 'The Excel (XLSX) document could not be read.',
      },
    ];
    for (const c of cases) {
      const up = await upload(c.name, c.data);
      expect(up.statusCode, `${c.name}: ${up.body}`).toBe(200);
      const detail = await addFile(id, c.name, up.json());
      expect(detail.item, c.name).toMatchObject({ status: 'failed', fail_reason: c.reason, chunk_count: 0 });
      expect(detail.chunks).toEqual([]);
    }
    // Not a ZIP archive at all: refused at upload, nothing kept.
    const fake = await upload('fake.xlsx', Buffer.from('Model,Price\nCommuter,899\n'));
    expect(fake.statusCode).toBe(400);
  });
});
