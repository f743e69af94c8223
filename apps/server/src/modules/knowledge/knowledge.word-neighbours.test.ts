// The word-neighbour asset (decision 420): it loads once with its words, a word's nearest words
// are near in meaning, and the work per question is bounded whatever its length (visitor input).
import { describe, expect, it } from 'vitest';
import { nearWords } from './knowledge.paraphrase';
import { neighboursOf, wordNeighbours } from './knowledge.word-neighbours';

describe('word neighbours', () => {
  it('loads the 55,000 most frequent words of letters with 8 neighbours each, "the" first, once', () => {
    const t = wordNeighbours();
    expect(t.words).toHaveLength(55_000);
    expect(t.words[0]).toBe('the');
    expect(t.ids).toHaveLength(55_000 * 8);
    expect(t.cosines).toHaveLength(55_000 * 8);
    expect(wordNeighbours()).toBe(t);
  });

  it('gives a word its nearest words, nearest first, and none for a word it lacks', () => {
    expect(neighboursOf('boat', 6, 0.55)).toContain('ship');
    expect(neighboursOf('cousin', 6, 0.55)).toContain('nephew');
    expect(neighboursOf('boat', 6, 0.55)).not.toContain('boat');
    expect(neighboursOf('zzyzx', 6, 0.55)).toEqual([]);
  });

  it('keeps only neighbours at the least cosine, at most k', () => {
    expect(neighboursOf('boat', 3, 0.55)).toEqual(neighboursOf('boat', 6, 0.55).slice(0, 3));
    expect(neighboursOf('boat', 6, 0.99)).toEqual([]);
  });

  it('gives neighbours to at most four absent words of a question, however many it has', () => {
    const words = Array.from({ length: 32 }, (_, i) => ['storm', 'river', 'king', 'bread'][i % 4]! + (i < 4 ? '' : 's'));
    expect(nearWords(words).map(([w]) => w)).toEqual(['storm', 'river', 'king', 'bread']);
  });
});
