// The corpora and questions of bench/knowledge-heldout.ts (bench/corpora/README.md says where each
// text came from and how the questions were split), how each corpus becomes knowledge items, the
// plain ts_rank baseline and the figures. Kept apart from the bench so that the bench reads as
// what it measures.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../apps/server/src/db/schema';
import { ROOT } from './report-support';

const DIR = join(ROOT, 'bench/corpora');

export interface Question {
  q: string;
  /** Phrases of the passage that answers it (any one); none for a question the text cannot answer. */
  answer: string[];
}

export interface Corpus {
  id: string;
  kind: string;
  items: { name: string; content: string }[];
  tuning: Question[];
  heldout: Question[];
  heldoutSha256: string;
}

/**
 * The held-out files as they were written (decision 428's sixth set; decision 413's, 419's, 421's,
 * 423's and 426's sets are now part of the tuning halves). A different hash means the held-out set changed: its figures are
 * no longer comparable and the change needs a new decision record.
 */
export const HELDOUT_SHA256: Record<string, string> = {
  'node-manual': '7cc6874c0d954a3605f12957167269424a8ea242f31570181b5ee40d6e6f09ba',
  'compression-faq': '08ef897a7ca292e06b99570cff7a94175a23f0ca77941dd946419daef1f6f319',
  'kjv-prose': 'c13af569f4c7a8399687d19869c62ce9f38c8af074b2251915d858b8a3c7f5b1',
};

const read = (corpus: string, file: string) => readFileSync(join(DIR, corpus, file), 'utf8');
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A help centre has one article per question: each FAQ entry is an item named by its question. */
function faqItems(): Corpus['items'] {
  const items: Corpus['items'] = [];
  // zlib: " 12. Question…\n\n    Answer…", the question sometimes on two lines; xz: "Q:  …\n\nA:  …".
  const entries = (text: string, start: RegExp) =>
    text
      .split(start)
      .slice(1)
      .map((e) => {
        const at = e.indexOf('\n\n');
        return {
          name: squash(e.slice(0, at)),
          content: e
            .slice(at)
            .replace(/^\s*A: +/, '')
            .trim(),
        };
      });
  items.push(...entries(read('compression-faq', 'zlib-faq.txt'), /^ ?\d+\. /m));
  items.push(...entries(read('compression-faq', 'xz-faq.txt'), /^Q: +/m));
  return items;
}

function fileItems(corpus: string, name: (file: string, text: string) => string): Corpus['items'] {
  return readdirSync(join(DIR, corpus))
    .filter((f) => /\.(md|txt)$/.test(f))
    .sort()
    .map((f) => {
      const text = read(corpus, f);
      return { name: name(f, text), content: text };
    });
}

export function loadCorpora(): Corpus[] {
  const questions = (id: string, half: string) => JSON.parse(read(id, `${half}.json`)) as Question[];
  const corpus = (id: string, kind: string, items: Corpus['items']): Corpus => ({
    id,
    kind,
    items,
    tuning: questions(id, 'tuning'),
    heldout: questions(id, 'heldout'),
    heldoutSha256: createHash('sha256').update(read(id, 'heldout.json')).digest('hex'),
  });
  return [
    corpus(
      'node-manual',
      'reference manual (Node.js API: timers, path, querystring, string_decoder, os)',
      fileItems('node-manual', (_f, t) => `Node.js — ${/^# (.+)$/m.exec(t)?.[1] ?? _f}`),
    ),
    corpus('compression-faq', 'product FAQ (zlib and XZ Utils, one article per question)', faqItems()),
    corpus(
      'kjv-prose',
      'long prose (King James Version: Ruth, Jonah, Esther, Genesis 37–45)',
      fileItems('kjv-prose', (f) =>
        f === 'genesis-joseph.txt' ? 'Genesis 37–45' : f.replace(/\.txt$/, '').replace(/^./, (c) => c.toUpperCase()),
      ),
    ),
  ];
}

/** Whether a passage holds one of the answer's phrases (case and spacing ignored). */
export function answers(passage: string, q: Question): boolean {
  const text = squash(passage).toLowerCase();
  return q.answer.some((a) => text.includes(squash(a).toLowerCase()));
}

/**
 * The plain baseline: PostgreSQL's ts_rank over the same chunks and index (the collection's
 * configuration, item names included), any word of the question, always the top k — no rarity,
 * no cut-off.
 */
export async function plainSearch(db: Kysely<DB>, collectionId: string, query: string, topK: number): Promise<string[]> {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  if (!words.length) return [];
  const res = await sql<{ content: string }>`
    select k.content from knowledge_chunks k,
      (select to_tsquery(k0.ts_config::regconfig, ${words.join(' | ')}) as q
       from knowledge_chunks k0 where k0.collection_id = ${collectionId} limit 1) t
    where k.collection_id = ${collectionId} and k.tsv @@ t.q
    order by ts_rank(k.tsv, t.q) desc, k.id
    limit ${topK}
  `.execute(db);
  return res.rows.map((r) => r.content);
}

export interface Tally {
  answerable: number;
  none: number;
  hit1: number;
  hit3: number;
  rr: number;
  silentNone: number;
  /** Answerable questions with nothing sent. */
  emptyAnswerable: number;
  /** Answerable questions whose answer the absolute floor removed (in the top k at threshold 0). */
  dropped: number;
  passages: number;
}

export const tally = (): Tally => ({
  answerable: 0,
  none: 0,
  hit1: 0,
  hit3: 0,
  rr: 0,
  silentNone: 0,
  emptyAnswerable: 0,
  dropped: 0,
  passages: 0,
});

/** Adds one question's passages (best first) to a tally; returns the row's verdict. */
export function score(t: Tally, q: Question, passages: string[]): string {
  t.passages += passages.length;
  if (!q.answer.length) {
    t.none++;
    if (passages.length === 0) t.silentNone++;
    return passages.length ? `noise (${passages.length})` : 'nothing';
  }
  t.answerable++;
  if (passages.length === 0) t.emptyAnswerable++;
  const at = passages.findIndex((p) => answers(p, q));
  if (at === 0) t.hit1++;
  if (at >= 0 && at < 3) t.hit3++;
  if (at >= 0) t.rr += 1 / (at + 1);
  return at < 0 ? (passages.length ? 'miss' : 'miss (nothing)') : `#${at + 1}`;
}

export const share = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '—');
export const mrr = (t: Tally) => (t.answerable ? (t.rr / t.answerable).toFixed(3) : '—');
