// The tuning half of Bench 10 held-out, question by question, and the cut-off's trade-off: a
// working aid for changing the search (decision 413's discipline: it reads tuning.json only — the
// held-out half is never loaded here). Bench 10's own set (the bike shop, its items loaded as
// text) is a fourth corpus. Per question: the rank of the answer in our full ranking (no cut-off),
// its score, the best scores and the rank the plain ts_rank baseline gives it; then, for floors
// and shares of the best score, hit@3 after the cut-off against no-answer questions kept silent.
//
//   node --import tsx bench/knowledge-tuning.ts [corpus]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEARCH_TOP_K_DEFAULT } from '../packages/shared/src/schemas/knowledge';
import { rankChunks } from '../apps/server/src/modules/knowledge/knowledge-rank.repository';
import { effectiveLanguage, textSearchConfig } from '../apps/server/src/modules/knowledge/knowledge.language';
import { namedWords } from '../apps/server/src/modules/knowledge/knowledge.background';
import { meaningfulWords } from '../apps/server/src/modules/knowledge/knowledge.query';
import { relevanceFloor } from '../apps/server/src/modules/knowledge/knowledge.cutoff';
import { findCollections } from '../apps/server/src/modules/knowledge/knowledge.repository';
import { knowledgeApi } from './knowledge-api-support';
import { answers, loadCorpora, plainSearch, type Question } from './knowledge-heldout-support';
import { CRAWL_PAGES, DOCX_ITEMS, PDF_ITEMS, QUESTIONS, TEXT_ITEMS, URL_PAGES } from './knowledge-quality-data';
import { ROOT } from './report-support';

interface Case {
  q: string;
  /** Whether a passage answers it; undefined for a no-answer question. */
  hit?: (p: { content: string; item_name: string }) => boolean;
}

interface Outcome {
  corpus: string;
  answerable: boolean;
  /** Scores of the ranking, best first (top 20), and the answer's index or -1. */
  scores: number[];
  /** Whether each passage only shares one word with a question whose noun the collection lacks. */
  lone: boolean[];
  at: number;
  /** The question's floor at threshold 1 (knowledge.cutoff.ts). */
  unit: number;
}

function bikeShop(): { id: string; items: { name: string; content: string }[]; cases: Case[] } {
  const items = [
    ...TEXT_ITEMS,
    ...URL_PAGES.map((p) => ({ name: p.title, content: `${p.title}\n\n${p.body}` })),
    ...CRAWL_PAGES.filter((p) => p.body && !URL_PAGES.some((u) => u.path === p.path)).map((p) => ({
      name: p.title,
      content: `${p.title}\n\n${p.body}`,
    })),
    ...PDF_ITEMS.map((p) => ({ name: p.name, content: p.lines.join('\n') })),
    ...DOCX_ITEMS.map((d) => ({
      name: d.name,
      content: [...d.paragraphs, ...(d.table ?? []).map((r) => r.join(' | '))].join('\n\n'),
    })),
  ];
  return {
    id: 'bench10',
    items,
    cases: QUESTIONS.map((x) => ({ q: x.q, hit: x.expect.length ? (p) => x.expect.includes(p.item_name) : undefined })),
  };
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const verbose = process.env.TUNING_VERBOSE !== '0';
  const { bench, worker, kb } = await knowledgeApi();
  const corpora = [
    ...loadCorpora().map((c) => ({
      id: c.id,
      items: c.items,
      // Only the tuning file is read (loadCorpora hashes the held-out file; its questions are not used here).
      cases: (JSON.parse(readFileSync(join(ROOT, 'bench/corpora', c.id, 'tuning.json'), 'utf8')) as Question[]).map((q): Case => ({
        q: q.q,
        hit: q.answer.length ? (p) => answers(p.content, q) : undefined,
      })),
    })),
    bikeShop(),
  ].filter((c) => !only || c.id === only);

  const outcomes: Outcome[] = [];
  for (const c of corpora) {
    const collection = (await kb('POST', '/kb/v1/collections', { name: c.id })) as { id: string };
    for (let i = 0; i < c.items.length; i += 50)
      await kb('POST', `/kb/v1/collections/${collection.id}/items/batch`, {
        items: c.items.slice(i, i + 50).map((t) => ({ name: t.name, knowledge_type: { text: { content: t.content } } })),
      });
    await worker.drain();
    const [col] = await findCollections(bench.ctx.db, bench.ownerId, [collection.id]);
    const language = effectiveLanguage(col!);
    const config = await textSearchConfig(bench.ctx.db, language);
    if (verbose) console.log(`\n== ${c.id} (${language ?? 'no language'})`);
    for (const q of c.cases) {
      const words = meaningfulWords(q.q, language);
      const ranked = await rankChunks(bench.ctx, bench.ownerId, [collection.id], config, words, 20, {
        language,
        named: namedWords(q.q),
      });
      const at = q.hit ? ranked.findIndex((p) => q.hit!(p)) : -1;
      outcomes.push({
        corpus: c.id,
        answerable: Boolean(q.hit),
        scores: ranked.map((r) => r.score),
        lone: ranked.map((r) => r.coincidental),
        at,
        unit: relevanceFloor(1, q.q, words),
      });
      if (!verbose) continue;
      const base = await plainSearch(bench.database.db, collection.id, q.q, SEARCH_TOP_K_DEFAULT);
      const baseAt = q.hit ? base.findIndex((p) => q.hit!({ content: p, item_name: '' })) : -1;
      const top = ranked
        .slice(0, 4)
        .map((h) => h.score.toFixed(2))
        .join(' ');
      const fmt = (i: number) => (i < 0 ? '-' : `#${i + 1}`);
      if (q.hit)
        console.log(
          `${at >= 0 && at < 3 ? 'ok  ' : 'MISS'} ${fmt(at).padEnd(3)} base ${c.id === 'bench10' ? '?' : fmt(baseAt).padEnd(3)} ans ${at >= 0 ? ranked[at]!.score.toFixed(2) : '  - '}${at >= 0 && ranked[at]!.coincidental ? ' lone' : ''} top ${top.padEnd(20)} ${q.q}`,
        );
      else console.log(`NONE                   top ${top.padEnd(20)} ${q.q}`);
      if (process.env.TUNING_SNIPPETS && (!q.hit || at < 0 || at >= 3))
        for (const [i, h] of ranked.slice(0, 3).entries())
          console.log(`      #${i + 1} ${h.score.toFixed(2)} ${h.content.replace(/\s+/g, ' ').slice(0, 150)}`);
    }
  }

  // The cut-off's trade-off: a passage is sent when its score ≥ the question's floor at this
  // threshold (knowledge.cutoff.ts) and ≥ rel × the best score.
  console.log('');
  const lines: string[] = [];
  for (const base of [0.25, 0.3, 0.35, 0.4, 0.45])
    for (const rel of [0.3, 0.4, 0.5]) {
      const per = corpora.map((c) => {
        let hit1 = 0;
        let hit3 = 0;
        let rr = 0;
        let dropped = 0;
        let noise = 0;
        let n = 0;
        let none = 0;
        for (const o of outcomes.filter((x) => x.corpus === c.id)) {
          const best = Math.max(0, ...o.scores.filter((_, i) => !o.lone[i]));
          const floor = base * o.unit;
          // The ranking's order is kept; the cut-off removes passages wherever they stand.
          const keep = o.scores.map((s, i) => !o.lone[i] && s >= floor && s >= rel * best);
          const sent = Math.min(keep.filter(Boolean).length, SEARCH_TOP_K_DEFAULT);
          if (!o.answerable) {
            none++;
            if (sent > 0) noise++;
            continue;
          }
          n++;
          const pos = o.at >= 0 && keep[o.at] ? keep.slice(0, o.at).filter(Boolean).length : -1;
          if (pos === 0) hit1++;
          if (pos >= 0 && pos < 3) hit3++;
          if (pos >= 0 && pos < SEARCH_TOP_K_DEFAULT) rr += 1 / (pos + 1);
          if (o.at >= 0 && o.at < SEARCH_TOP_K_DEFAULT && pos < 0) dropped++;
        }
        return `${c.id.slice(0, 8).padEnd(8)} ${String(hit1).padStart(2)}/${String(hit3).padStart(2)}/${n} mrr ${(rr / n).toFixed(2)} drop ${dropped} noise ${noise}/${none}`;
      });
      lines.push(`threshold ${base.toFixed(2)} rel ${rel.toFixed(1)}  ${per.join(' | ')}`);
    }
  console.log(lines.join('\n'));
  await worker.stop();
  await bench.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
