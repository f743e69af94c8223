// The extraction child process: reads the documents sent by the parent
// (knowledge.extract-runner.ts), one at a time, and answers each one's text (or, for a crawled
// page, its title, links and robots directives) or an ExtractError's message. It runs with a
// V8 heap limit, an empty environment and a parent that kills it at a time and a memory limit,
// so a hostile document can only end this process. A document item's process reads one
// document; a crawl's reads that crawl's pages (decision 410). It ends with its parent's channel.
import { readFile } from 'node:fs/promises';
import { ExtractError, extractDocument, type DocumentKind } from './knowledge.extract';
import { parseHtml } from './knowledge.html';

export interface ExtractJob {
  kind: DocumentKind;
  /** The stored file to read, or the fetched body itself. */
  path?: string;
  data?: Uint8Array;
  baseUrl?: string;
  /** A crawled HTML page: answer what the crawler needs, not the text. */
  crawl?: true;
}

/** What the crawler reads of a page. */
export interface PageFacts {
  title: string;
  links: string[];
  noindex: boolean;
  nofollow: boolean;
}

export type ExtractReply = { ok: true; text: string; title?: string } | { ok: true; page: PageFacts } | { ok: false; error: string };

async function run(job: ExtractJob): Promise<ExtractReply> {
  try {
    const data = job.path ? await readFile(job.path) : Buffer.from(job.data ?? new Uint8Array());
    if (job.crawl) {
      const { title, links, noindex, nofollow } = parseHtml(data.toString('utf8'), job.baseUrl);
      return { ok: true, page: { title, links, noindex, nofollow } };
    }
    const out = await extractDocument(data, job.kind, job.baseUrl);
    return { ok: true, text: out.text, ...(out.title ? { title: out.title } : {}) };
  } catch (err) {
    return { ok: false, error: err instanceof ExtractError ? err.message : 'The document could not be read.' };
  }
}

// One job at a time (the parent waits for each answer).
process.on('message', (job: ExtractJob) => {
  void run(job).then((reply) => process.send!(reply));
});
process.once('disconnect', () => process.exit(0));
process.send!({ ready: true });
