// The text items of Bench 9 (knowledge ingestion) and its profiling aid: English-like prose,
// sentences of a Zipf-like vocabulary, paragraphs of a few sentences, ~96,000 characters an item;
// the same texts in every run (one seeded source for the process: a second call continues the
// sequence, so Bench 9's PostgreSQL run gets the next items' texts, as it always did).
import { seededRandom } from './random-support';

const ITEM_CHARS = 96_000;
const VOCAB = Array.from(
  { length: 6000 },
  (_, i) => `${['re', 'con', 'de', 'pro', 'in', 'ex'][i % 6]}${(i * 7919).toString(36)}${['ing', 'ed', 'er', 'ion', 's', ''][i % 5]}`,
);

const rand = seededRandom(7);

/** The next `n` items' texts. */
export function ingestionTexts(n: number): string[] {
  const itemText = () => {
    const out: string[] = [];
    let chars = 0;
    while (chars < ITEM_CHARS) {
      const sentences: string[] = [];
      for (let s = 0; s < 5; s++) {
        const words = Array.from({ length: 8 + Math.floor(rand() * 14) }, () => VOCAB[Math.floor(Math.pow(rand(), 2.5) * VOCAB.length)]!);
        sentences.push(`${words.join(' ')}.`);
      }
      const p = sentences.join(' ');
      out.push(p);
      chars += p.length + 2;
    }
    return out.join('\n\n');
  };
  return Array.from({ length: n }, itemText);
}
