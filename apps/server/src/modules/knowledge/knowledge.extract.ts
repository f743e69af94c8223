// Text out of a document: PDF (unpdf, the serverless build of pdf.js), DOCX (mammoth, to HTML so
// tables keep their rows, then the HTML reader), HTML (cheerio), CSV (csv-parse: each record a
// `cell | cell` row, as tables elsewhere), XLSX and PPTX (knowledge.office.ts), plain text and
// Markdown.
// Failures are ExtractError with a message fit for the item's status. These functions run in the
// extraction child process (knowledge.extract-child.ts), never in the server's own heap, except
// for plain text. A DOCX's archive is checked (knowledge.zip-guard.ts) before mammoth opens it.
// Each reader's library is loaded when a document of its kind is read, not before: the
// extraction child reads one document and exits, so it loads only what that one needs (decision
// 405), and the server, which imports this file for kindOf and decodeText, loads none of them.
import { ExtractError } from './knowledge.extract-error';
import { parseHtml } from './knowledge.html';

export { ExtractError };

export type DocumentKind = 'text' | 'markdown' | 'html' | 'pdf' | 'docx' | 'csv' | 'xlsx' | 'pptx';

const PDF_MAGIC = Buffer.from('%PDF-');
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export function looksLikePdf(head: Buffer): boolean {
  // The header may follow a few bytes of junk; pdf.js looks in the first kilobyte, we in the head.
  return head.indexOf(PDF_MAGIC) !== -1 && head.indexOf(PDF_MAGIC) < 64;
}

export function looksLikeZip(head: Buffer): boolean {
  return head.subarray(0, 4).equals(ZIP_MAGIC);
}

/** UTF-8 text without NUL bytes (binary files pretending to be text are refused). */
export function decodeText(data: Buffer): string | null {
  if (data.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data).replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

/** The kind of a fetched or stored document from its content type (and name, for files). */
export function kindOf(contentType: string | null | undefined, name = ''): DocumentKind | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'text/csv') return 'csv';
  if (type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') return 'docx';
  if (type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') return 'xlsx';
  if (type === 'application/vnd.openxmlformats-officedocument.presentationml.presentation') return 'pptx';
  if (type === 'text/markdown' || /\.(md|markdown)$/i.test(name)) return 'markdown';
  if (type === 'text/plain' || type === '') return 'text';
  return null;
}

async function pdfText(data: Buffer): Promise<string> {
  if (!looksLikePdf(data.subarray(0, 1024))) throw new ExtractError('The file is not a PDF document.');
  const { extractText, getDocumentProxy } = await import('unpdf');
  try {
    const doc = await getDocumentProxy(new Uint8Array(data), {
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    });
    try {
      const { text } = await extractText(doc, { mergePages: false });
      return text.join('\n\n');
    } finally {
      await doc.destroy();
    }
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    const name = (err as { name?: string }).name;
    throw new ExtractError(name === 'PasswordException' ? 'The PDF is protected by a password.' : 'The PDF could not be read.');
  }
}

async function docxText(data: Buffer): Promise<string> {
  if (!looksLikeZip(data)) throw new ExtractError('The file is not a Word (DOCX) document.');
  await (await import('./knowledge.zip-guard')).checkDocxArchive(data);
  const { default: mammoth } = await import('mammoth');
  try {
    // Images are left out (by default mammoth inlines each one as base64): only text is indexed.
    const options = {
      externalFileAccess: false,
      ignoreEmptyParagraphs: true,
      convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
    };
    const { value } = await mammoth.convertToHtml({ buffer: data }, options);
    return parseHtml(`<body>${value}</body>`).text;
  } catch {
    throw new ExtractError('The Word (DOCX) document could not be read.');
  }
}

/** CSV records as `cell | cell` lines (the header row first), blank cells kept in place. */
async function csvText(data: Buffer): Promise<string> {
  const text = decodeText(data);
  if (text === null) throw new ExtractError('The file is not UTF-8 text.');
  const { parse: parseCsv } = await import('csv-parse/sync');
  let rows: string[][];
  try {
    rows = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, bom: true, max_record_size: 1_000_000 }) as string[][];
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    throw new ExtractError(`The CSV file could not be read${line ? ` (line ${line})` : ''}: ${(err as Error).message.split(':')[0]}.`);
  }
  return rows.map((r) => r.map((c) => c.trim()).join(' | ')).join('\n');
}

export async function extractDocument(data: Buffer, kind: DocumentKind, baseUrl?: string): Promise<{ text: string; title?: string }> {
  switch (kind) {
    case 'pdf':
      return { text: await pdfText(data) };
    case 'docx':
      return { text: await docxText(data) };
    case 'csv':
      return { text: await csvText(data) };
    case 'xlsx':
    case 'pptx': {
      const office = await import('./knowledge.office');
      return { text: await (kind === 'xlsx' ? office.xlsxText(data) : office.pptxText(data)) };
    }
    case 'html': {
      const page = parseHtml(data.toString('utf8'), baseUrl);
      return { text: page.text, title: page.title };
    }
    case 'text':
    case 'markdown': {
      const text = decodeText(data);
      if (text === null) throw new ExtractError('The file is not UTF-8 text.');
      return { text };
    }
  }
}
