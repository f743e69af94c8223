import type { KnowledgeCollection } from '@parla/shared/schemas/knowledge';
import { describe, expect, it } from 'vitest';
import { collectionModeLine } from './collection-mode';

const base: KnowledgeCollection = {
  id: 'c',
  name: 'Shop',
  language: null,
  detected_language: 'en',
  search_mode: 'fulltext',
  vectors_backfilling: false,
  reindexing: false,
  crawl: { schedule: 'off', url: null, include: [], exclude: [], next_at: null },
  created_at: '2026-11-25T00:00:00.000Z',
  item_count: 2,
};

describe("a collection's mode line", () => {
  it('says when vectors are still being added to earlier items of a hybrid collection, and no longer once done', () => {
    expect(collectionModeLine(base)).toBe('Full-text search · Detected: English');
    expect(collectionModeLine({ ...base, search_mode: 'hybrid', vectors_backfilling: true })).toBe(
      'Hybrid search (full-text and vectors) · Adding vectors to earlier items… · Detected: English',
    );
    expect(collectionModeLine({ ...base, search_mode: 'hybrid' })).toBe('Hybrid search (full-text and vectors) · Detected: English');
  });
});
