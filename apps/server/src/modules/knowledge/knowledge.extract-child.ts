// The extraction child process: reads one document (PDF, DOCX, HTML) sent by the parent
// (knowledge.extract-runner.ts), answers its text or an ExtractError's message, and exits. It
// runs with a V8 heap limit, an empty environment and a parent that kills it at a time and a
// memory limit, so a hostile document can only end this process.
import { readFile } from 'node:fs/promises';
import { ExtractError, extractDocument, type DocumentKind } from './knowledge.extract';

export interface ExtractJob {
  kind: DocumentKind;
  /** The stored file to read, or the fetched body itself. */
  path?: string;
  data?: Uint8Array;
  baseUrl?: string;
}

export type ExtractReply = { ok: true; text: string; title?: string } | { ok: false; error: string };

async function run(job: ExtractJob): Promise<ExtractReply> {
  try {
    const data = job.path ? await readFile(job.path) : Buffer.from(job.data ?? new Uint8Array());
    const out = await extractDocument(data, job.kind, job.baseUrl);
    return { ok: true, text: out.text, ...(out.title ? { title: out.title } : {}) };
  } catch (err) {
    return { ok: false, error: err instanceof ExtractError ? err.message : 'The document could not be read.' };
  }
}

process.once('message', (job: ExtractJob) => {
  void run(job).then((reply) => process.send!(reply, () => process.exit(0)));
});
process.send!({ ready: true });
