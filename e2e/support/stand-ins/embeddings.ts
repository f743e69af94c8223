// An OpenAI-compatible embeddings API on loopback (POST /embeddings {model, input}) with
// deterministic vectors: words are hashed into 64 dimensions, and a few synonym groups share a
// dimension, so "reimbursement" lands near "refund" although the words differ. Enough to prove
// that hybrid search finds what full-text search cannot.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const DIMS = 64;
const SYNONYMS: string[][] = [
  ['refund', 'refunds', 'reimbursement', 'reimburse', 'money', 'cash', 'repay'],
  ['bicycle', 'bicycles', 'bike', 'bikes', 'cycle'],
  ['repair', 'repairs', 'fix', 'mend', 'service'],
];

function dimOf(word: string): number {
  const group = SYNONYMS.findIndex((g) => g.includes(word));
  if (group >= 0) return group;
  let h = 2166136261;
  for (const c of word) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return SYNONYMS.length + (Math.abs(h) % (DIMS - SYNONYMS.length));
}

export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) v[dimOf(w)]! += 1;
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

export interface EmbeddingsStandIn {
  port: number;
  url: string;
  calls: number;
  close(): Promise<void>;
}

export async function startEmbeddings(port = 0, apiKey = 'test-embedding-key'): Promise<EmbeddingsStandIn> {
  const state = { calls: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || !req.url?.endsWith('/embeddings') || req.headers.authorization !== `Bearer ${apiKey}`) {
        res.statusCode = req.headers.authorization === `Bearer ${apiKey}` ? 404 : 401;
        res.end(JSON.stringify({ error: { message: 'invalid request' } }));
        return;
      }
      state.calls += 1;
      const { input, model } = JSON.parse(body) as { input: string | string[]; model: string };
      const list = Array.isArray(input) ? input : [input];
      res.end(
        JSON.stringify({
          object: 'list',
          model,
          data: list.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t) })),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}/v1`,
    get calls() {
      return state.calls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
