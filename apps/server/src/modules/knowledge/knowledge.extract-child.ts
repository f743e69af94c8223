// The extraction child process: reads the documents sent by the parent
// (knowledge.extract-runner.ts), one at a time, and answers each one's text (or, for a crawled
// page, its title, the links its site's robots.txt allows, and its robots directives; or the
// robots.txt verdict on a list of paths) or an ExtractError's message. It runs with a
// V8 heap limit, an empty environment and a parent that kills it at a time and a memory limit,
// so a hostile document can only end this process. A document item's process reads one
// document; a crawl's reads that crawl's pages (decision 410). It ends with its parent's channel.
import { readFile } from 'node:fs/promises';
import { ExtractError, extractDocument, type DocumentKind } from './knowledge.extract';
import { parseHtml } from './knowledge.html';
import { linksAllowed, robotsOf, type RobotsRules } from './knowledge.robots';

export interface ExtractJob {
  kind: DocumentKind;
  /** The stored file to read, or the fetched body itself. */
  path?: string;
  data?: Uint8Array;
  baseUrl?: string;
  /** A crawled HTML page: answer what the crawler needs, not the text. */
  crawl?: true;
  /** The crawled site's robots.txt and site key: a page's links are those it allows. */
  robots?: RobotsRules;
  site?: string;
  /** Paths (with their query) to check against `robots` alone: no document is read. */
  paths?: string[];
}

/** What the crawler reads of a page. */
export interface PageFacts {
  title: string;
  links: string[];
  noindex: boolean;
  nofollow: boolean;
}

export type ExtractReply =
  | { ok: true; text: string; title?: string }
  | { ok: true; page: PageFacts }
  | { ok: true; allowed: boolean[] }
  | { ok: false; error: string };

async function run(job: ExtractJob): Promise<ExtractReply> {
  try {
    if (job.paths) {
      const robots = robotsOf(job.robots ?? { kind: 'all' });
      return { ok: true, allowed: job.paths.map((p) => robots.allowed(p)) };
    }
    const data = job.path ? await readFile(job.path) : Buffer.from(job.data ?? new Uint8Array());
    if (job.crawl) {
      const { title, links, noindex, nofollow } = parseHtml(data.toString('utf8'), job.baseUrl);
      const followed = job.robots && job.site ? linksAllowed(links, job.site, job.robots) : links;
      return { ok: true, page: { title, links: followed, noindex, nofollow } };
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
