// The knowledge API (spec 4 §3, §5, §7, §9; design/api.md "Knowledge"): collections, items of
// three kinds, file uploads, crawl and search, with the spec's exact validation messages.
import { z } from 'zod';
import { MB } from '../limits';
import { idField } from './common';

/** The three document types a file item may be (spec 4 §9 gives the three limits; which type
 *  takes which is ours: text is small, Word documents medium, PDFs with images the largest). */
export const KNOWLEDGE_FILE_TYPES = {
  text: {
    label: 'Text/Markdown',
    maxBytes: 5 * MB,
    extensions: ['.txt', '.md', '.markdown'],
    mimeTypes: ['text/plain', 'text/markdown'],
  },
  docx: {
    label: 'DOCX',
    maxBytes: 20 * MB,
    extensions: ['.docx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  pdf: {
    label: 'PDF',
    maxBytes: 25 * MB,
    extensions: ['.pdf'],
    mimeTypes: ['application/pdf'],
  },
  html: {
    label: 'HTML',
    maxBytes: 5 * MB,
    extensions: ['.html', '.htm'],
    mimeTypes: ['text/html'],
  },
  csv: {
    label: 'CSV',
    maxBytes: 5 * MB,
    extensions: ['.csv'],
    mimeTypes: ['text/csv'],
  },
  xlsx: {
    label: 'XLSX',
    maxBytes: 10 * MB,
    extensions: ['.xlsx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  },
  pptx: {
    label: 'PPTX',
    maxBytes: 20 * MB,
    extensions: ['.pptx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  },
} as const;
export type KnowledgeFileKind = keyof typeof KNOWLEDGE_FILE_TYPES;
/** The largest accepted document, also the default maximum (spec 4 §9: 26214400 bytes). */
export const KNOWLEDGE_FILE_MAX_BYTES = KNOWLEDGE_FILE_TYPES.pdf.maxBytes;

/** file_type values of a file item: the MIME type of the checked document. */
export const KNOWLEDGE_FILE_MIME = [
  'text/plain',
  'text/markdown',
  'application/pdf',
  KNOWLEDGE_FILE_TYPES.docx.mimeTypes[0],
  'text/html',
  'text/csv',
  KNOWLEDGE_FILE_TYPES.xlsx.mimeTypes[0],
  KNOWLEDGE_FILE_TYPES.pptx.mimeTypes[0],
] as const;

export const INVALID_FILE_MESSAGE = '❌ Invalid file type or file exceeds size limit.';
export function fileTooLargeMessage(kind: KnowledgeFileKind): string {
  const t = KNOWLEDGE_FILE_TYPES[kind];
  return `❌ File size exceeds ${t.maxBytes / MB}MB for ${t.label}.`;
}

/** The document kind of a file name (by its extension), or null. */
export function knowledgeFileKind(fileName: string): KnowledgeFileKind | null {
  const lower = fileName.toLowerCase();
  for (const [kind, t] of Object.entries(KNOWLEDGE_FILE_TYPES) as [KnowledgeFileKind, (typeof KNOWLEDGE_FILE_TYPES)[KnowledgeFileKind]][]) {
    if (t.extensions.some((e) => lower.endsWith(e))) return kind;
  }
  return null;
}

/** The browser's check before an upload (the server checks again, magic bytes included):
 *  null when acceptable, else the spec's message. */
export function checkKnowledgeFile(file: { name: string; size: number }): string | null {
  const kind = knowledgeFileKind(file.name);
  if (!kind || file.size === 0) return INVALID_FILE_MESSAGE;
  if (file.size > KNOWLEDGE_FILE_TYPES[kind].maxBytes) return fileTooLargeMessage(kind);
  return null;
}

/** Crawls stop after this many pages (spec 4 §9). */
export const CRAWL_PAGE_LIMIT = 20;
/** The upload overlay (spec 4 §4, §9). */
export const UPLOAD_PROGRESS_TICK_MS = 200;
export const UPLOAD_PROGRESS_CAP = 98;
export const UPLOAD_SUCCESS_DELAY_SINGLE_MS = 3000;
export const UPLOAD_SUCCESS_DELAY_DEFAULT_MS = 500;
/** The Add Knowledge dialog's height (spec 4 §9). */
export const KNOWLEDGE_DIALOG_HEIGHT = 720;
/** Pasted text: large enough for a long document, small enough for one JSON request. */
export const KNOWLEDGE_TEXT_MAX_CHARS = 500_000;
/** One batch request creates at most this many items (a crawl gives at most 20). */
export const KNOWLEDGE_BATCH_MAX = 50;
/** Retrieval testing: how many chunks by default, and at most. */
export const SEARCH_TOP_K_DEFAULT = 5;
export const SEARCH_TOP_K_MAX = 20;
/** Relevance cut-off (0..1, docs/decisions/407, 417): a passage reaches the model only when its
 *  score is at least this (the avatar's setting, else this default) for a question of up to two
 *  meaningful words, threshold × 2/n for n words (a longer question's answer holds a smaller share
 *  of it)… */
export const SEARCH_SCORE_THRESHOLD_DEFAULT = 0.35;
/** …and at least this share of the best passage's score. */
export const SEARCH_RELATIVE_CUTOFF = 0.4;
/** An avatar's Knowledge Base tab: passages per answer. */
export const AVATAR_TOP_K_MAX = 10;

/** Languages a collection's documents may be in: each chooses the full-text stemming. */
export const KNOWLEDGE_LANGUAGES: readonly { code: string; name: string }[] = [
  { code: '', name: 'Detect automatically' },
  { code: 'none', name: 'Any language (no stemming)' },
  { code: 'en', name: 'English' },
  { code: 'de', name: 'German' },
  { code: 'fr', name: 'French' },
  { code: 'es', name: 'Spanish' },
  { code: 'it', name: 'Italian' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'nl', name: 'Dutch' },
  { code: 'sv', name: 'Swedish' },
  { code: 'da', name: 'Danish' },
  { code: 'no', name: 'Norwegian' },
  { code: 'fi', name: 'Finnish' },
  { code: 'ru', name: 'Russian' },
  { code: 'tr', name: 'Turkish' },
  { code: 'hu', name: 'Hungarian' },
  { code: 'ro', name: 'Romanian' },
];

export const KNOWLEDGE_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type KnowledgeStatus = (typeof KNOWLEDGE_STATUSES)[number];

/** Spec 4 §5: http(s)://something.something (and bracketed IPv6 literals, which the outbound
 *  guard then judges like any other address). */
export const KNOWLEDGE_URL_PATTERN = /^https?:\/\/(?:\[[0-9a-f:.]+\](?::\d{1,5})?|[^\s/?#.]+(?:\.[^\s/?#.]+)+)(?:[/?#]\S*)?$/i;

export const DUPLICATE_URL_MESSAGE = (name: string) => `This page is already in the collection (“${name}”).`;
export const DUPLICATE_TEXT_MESSAGE = (name: string) => `The same text is already in the collection (“${name}”).`;

export const knowledgeUrlField = z
  .string({ error: 'URL is required' })
  .trim()
  .min(1, 'URL is required')
  .max(2000, 'Enter a valid URL')
  .regex(KNOWLEDGE_URL_PATTERN, 'Enter a valid URL');

const itemName = z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters');

export const collectionRequest = z.object({
  name: z
    .string({ error: 'Collection name is a required field.' })
    .trim()
    .min(1, 'Collection name is a required field.')
    .max(100, 'Collection name must be at most 100 characters.'),
  /** Language of the collection's documents (a code such as 'en' or 'de-DE'); chooses the
   *  full-text configuration. Empty: no stemming ('simple'). */
  language: z.string().trim().max(20, 'Language is invalid').nullable().optional(),
});
export type CollectionRequest = z.infer<typeof collectionRequest>;

export const textKnowledge = z.object({
  content: z
    .string({ error: 'Content is required' })
    .trim()
    .min(1, 'Content is required')
    .max(KNOWLEDGE_TEXT_MAX_CHARS, `Content must be at most ${KNOWLEDGE_TEXT_MAX_CHARS} characters`),
});
export const urlKnowledge = z.object({ url: knowledgeUrlField });
export const fileKnowledge = z.object({
  file_name: z.string({ error: 'File is required' }).trim().min(1, 'File is required').max(255, 'File name is too long'),
  file_type: z.enum(KNOWLEDGE_FILE_MIME, { error: INVALID_FILE_MESSAGE }),
  url: z.string({ error: 'File is required' }).trim().min(1, 'File is required').max(300, 'File is required'),
});

export const knowledgeType = z
  .object({ text: textKnowledge.optional(), url: urlKnowledge.optional(), file: fileKnowledge.optional() })
  .strict()
  .refine((v) => [v.text, v.url, v.file].filter(Boolean).length === 1, {
    message: 'knowledge_type must be exactly one of text, url or file.',
  });
export type KnowledgeType = z.infer<typeof knowledgeType>;

export const createItemRequest = z.object({ name: itemName, knowledge_type: knowledgeType });
export type CreateItemRequest = z.infer<typeof createItemRequest>;

export const createItemsRequest = z.object({
  items: z
    .array(z.unknown(), { error: 'items must be a list' })
    .min(1, 'Add at least one item.')
    .max(KNOWLEDGE_BATCH_MAX, `At most ${KNOWLEDGE_BATCH_MAX} items at once.`),
});

/** A crawl's path patterns: globs over the page's path, such as `/blog/**` or `/docs/*.html`. */
export const CRAWL_PATTERNS_MAX = 10;
/** Wildcards (`*`, `**` or `?`) per pattern at most. The server's matcher is linear whatever the
 *  pattern (issue 33: a backtracking one spent 21.6 s on `/*a*a*a*a*a*b`); the bound keeps
 *  patterns plain and refuses such a pattern at once, with a message, rather than at crawl time. */
export const CRAWL_PATTERN_MAX_WILDCARDS = 5;
const wildcardsIn = (pattern: string) => (pattern.replace(/\\./g, '').match(/\*+|\?/g) ?? []).length;
export const crawlPatterns = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'A path pattern is empty.')
      .max(200, 'A path pattern must be at most 200 characters.')
      .regex(/^\//, 'A path pattern starts with /.')
      .refine((p) => wildcardsIn(p) <= CRAWL_PATTERN_MAX_WILDCARDS, {
        message: `A path pattern may have at most ${CRAWL_PATTERN_MAX_WILDCARDS} wildcards (* or ?).`,
      }),
    { error: 'Path patterns must be a list' },
  )
  .max(CRAWL_PATTERNS_MAX, `At most ${CRAWL_PATTERNS_MAX} path patterns.`);

export const crawlRequest = z.object({
  url: knowledgeUrlField,
  limit: z.coerce.number().int().min(1).max(CRAWL_PAGE_LIMIT).optional(),
  /** Only pages whose path matches one of these are listed (the others are still followed). */
  include: crawlPatterns.optional(),
  /** Pages whose path matches one of these are neither fetched nor listed. */
  exclude: crawlPatterns.optional(),
});

/** How often a collection re-crawls its site (issue 15 item 6). */
export const CRAWL_SCHEDULES = ['off', 'daily', 'weekly'] as const;
export type CrawlSchedule = (typeof CRAWL_SCHEDULES)[number];
export const crawlScheduleRequest = z
  .object({
    schedule: z.enum(CRAWL_SCHEDULES, { error: 'Choose off, daily or weekly.' }),
    url: knowledgeUrlField.optional(),
    include: crawlPatterns.optional(),
    exclude: crawlPatterns.optional(),
  })
  .refine((v) => v.schedule === 'off' || Boolean(v.url), { message: 'URL is required', path: ['url'] });
export type CrawlScheduleRequest = z.infer<typeof crawlScheduleRequest>;
export type CrawlRequest = z.infer<typeof crawlRequest>;

export const searchRequest = z.object({
  collection_ids: z.array(idField, { error: 'Choose at least one collection.' }).min(1, 'Choose at least one collection.').max(50),
  query: z.string({ error: 'Query is required' }).trim().min(1, 'Query is required').max(1000, 'Query is too long'),
  top_k: z.coerce.number().int().min(1).max(SEARCH_TOP_K_MAX).optional(),
  /** The absolute floor of the relevance cut-off; default SEARCH_SCORE_THRESHOLD_DEFAULT. */
  score_threshold: z.coerce
    .number({ error: 'Threshold must be a number between 0 and 1.' })
    .min(0, 'Threshold must be a number between 0 and 1.')
    .max(1, 'Threshold must be a number between 0 and 1.')
    .optional(),
});
export type SearchRequest = z.infer<typeof searchRequest>;

export const idParams = z.object({ id: idField });

// --- Forms (derived from the request schemas) -------------------------------------------------

export const textItemForm = z.object({ name: itemName, content: textKnowledge.shape.content });
export type TextItemForm = z.infer<typeof textItemForm>;

export const urlItemsForm = z.object({
  rows: z.array(z.object({ name: itemName, url: knowledgeUrlField })).min(1),
});
export type UrlItemsForm = z.infer<typeof urlItemsForm>;

export const crawlForm = z.object({ url: knowledgeUrlField });

// --- Answers ----------------------------------------------------------------------------------

export interface KnowledgeCollection {
  id: string;
  name: string;
  /** Chosen by the user; null: detected from the text. */
  language: string | null;
  /** Detected from the collection's text when no language was chosen (null: none yet). */
  detected_language: string | null;
  /** How the collection is searched: full-text, or full-text and vectors fused. */
  search_mode: 'fulltext' | 'hybrid';
  /** Hybrid, and chunks stored before (or embedded without success) are still being given vectors. */
  vectors_backfilling: boolean;
  /** Its chunks are being re-indexed in the background. */
  reindexing: boolean;
  /** Re-crawl of its site: how often, from which page, path patterns, next time (null: off). */
  crawl: { schedule: CrawlSchedule; url: string | null; include: string[]; exclude: string[]; next_at: string | null };
  created_at: string;
  item_count: number;
}

export interface KnowledgeItem {
  id: string;
  name: string;
  created_at: string;
  collection_id: string;
  knowledge_type: KnowledgeType;
  status: KnowledgeStatus;
  /** Why ingestion failed (status 'failed'). */
  fail_reason: string | null;
  chunk_count: number;
}

/** An item opened: its extracted text as chunks, in order (GET /kb/v1/items/{id}/chunks). */
export interface KnowledgeItemDetail {
  item: KnowledgeItem;
  chunks: { ord: number; text: string }[];
}

export const RESYNC_URL_ONLY = 'Only a web page (URL or crawled) can be re-synced.';
export const RESYNC_BUSY = 'This item is being processed; re-sync it once it is ready or failed.';

export interface BatchItemResult {
  index: number;
  status: 'success' | 'error';
  item?: KnowledgeItem;
  error?: string;
}

export interface UploadedFile {
  url: string;
  file_name: string;
  file_type: (typeof KNOWLEDGE_FILE_MIME)[number];
}

export interface CrawledPage {
  url: string;
  title: string;
}

export interface SearchHit {
  item_id: string;
  item_name: string;
  collection_id: string;
  text: string;
  score: number;
  /** How the chunk was found: full-text, vector or both. */
  match: 'fulltext' | 'vector' | 'hybrid';
}
