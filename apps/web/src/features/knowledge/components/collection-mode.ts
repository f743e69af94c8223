// The line under a collection's language: how it is searched (full-text, or hybrid with vectors
// still being added to earlier items), the detected language, and background work in progress.
import { KNOWLEDGE_LANGUAGES, type KnowledgeCollection } from '@parla/shared/schemas/knowledge';

export function collectionModeLine(c: KnowledgeCollection): string {
  const name = (code: string | null) => KNOWLEDGE_LANGUAGES.find((l) => l.code === code)?.name ?? code;
  const mode =
    c.search_mode === 'hybrid'
      ? `Hybrid search (full-text and vectors)${c.vectors_backfilling ? ' · Adding vectors to earlier items…' : ''}`
      : 'Full-text search';
  const lang = c.language
    ? ''
    : c.detected_language
      ? ` · Detected: ${name(c.detected_language)}`
      : ' · Language detected from the first document';
  const recrawl = c.crawl?.schedule && c.crawl.schedule !== 'off' ? ` · Re-crawls ${c.crawl.schedule}` : '';
  return `${mode}${lang}${c.reindexing ? ' · Re-indexing…' : ''}${recrawl}`;
}
