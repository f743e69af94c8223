// XLSX and PPTX text (issue 15 item 7), read in the extraction child like PDF and DOCX
// (docs/decisions/405, 408). Both are ZIP archives: checked first by the same archive guard as
// DOCX (declared and real unpacked sizes, ratio, part count), then
// - XLSX: read-excel-file (MIT, maintained) → each sheet under its name, each row `cell | cell`,
//   as CSV and DOCX tables are, so a row stays one retrievable line;
// - PPTX: the slides' XML (fflate unzips the guarded archive, cheerio reads the XML) → each
//   slide's paragraphs in order under "Slide N", speaker notes after them.
// Failures are ExtractErrors with a message for the item.
import { load } from 'cheerio';
import { unzipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/node';
import { ExtractError } from './knowledge.extract-error';
import { archiveMessages, checkDocxArchive } from './knowledge.zip-guard';

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const XLSX = archiveMessages('Excel (XLSX)');
const PPTX = archiveMessages('PowerPoint (PPTX)');
export const XLSX_NOT_A_WORKBOOK = 'The file is not an Excel (XLSX) workbook.';
export const PPTX_NOT_A_PRESENTATION = 'The file is not a PowerPoint (PPTX) presentation.';
/** More cells than this (about a 64 MB sheet's worth) are not read. */
const MAX_CELLS = 2_000_000;

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().replace(/T00:00:00\.000Z$/, '');
  return String(v).replace(/\s+/g, ' ').trim();
}

export async function xlsxText(data: Buffer): Promise<string> {
  if (!data.subarray(0, 4).equals(ZIP_MAGIC)) throw new ExtractError(XLSX_NOT_A_WORKBOOK);
  await checkDocxArchive(data, XLSX);
  let sheets: Awaited<ReturnType<typeof readXlsxFile>>;
  try {
    sheets = await readXlsxFile(data);
  } catch {
    throw new ExtractError(XLSX.unreadable);
  }
  let cells = 0;
  const parts: string[] = [];
  for (const { sheet, data: rows } of sheets) {
    const lines: string[] = [];
    for (const row of rows) {
      cells += row.length;
      if (cells > MAX_CELLS) throw new ExtractError(XLSX.tooLarge);
      const cellsText = row.map(cellText);
      while (cellsText.length && !cellsText[cellsText.length - 1]) cellsText.pop();
      if (cellsText.some(Boolean)) lines.push(cellsText.join(' | '));
    }
    if (lines.length) parts.push(`${sheets.length > 1 ? `Sheet: ${sheet}\n` : ''}${lines.join('\n')}`);
  }
  return parts.join('\n\n');
}

const SLIDE = /^ppt\/slides\/slide(\d+)\.xml$/;
const NOTES = /^ppt\/notesSlides\/notesSlide(\d+)\.xml$/;

/** The paragraphs of one slide's (or notes page's) XML, each the concatenation of its runs. */
function paragraphs(xml: Uint8Array): string[] {
  const $ = load(Buffer.from(xml).toString('utf8'), { xml: true });
  return $('a\\:p')
    .map((_, p) =>
      $(p)
        .find('a\\:t')
        .map((__, t) => $(t).text())
        .get()
        .join(''),
    )
    .get()
    .map((t: string) => t.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

export async function pptxText(data: Buffer): Promise<string> {
  if (!data.subarray(0, 4).equals(ZIP_MAGIC)) throw new ExtractError(PPTX_NOT_A_PRESENTATION);
  await checkDocxArchive(data, PPTX);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(data), { filter: (f) => SLIDE.test(f.name) || NOTES.test(f.name) });
  } catch {
    throw new ExtractError(PPTX.unreadable);
  }
  const numbered = (re: RegExp) =>
    new Map(Object.entries(files).flatMap(([name, body]) => (re.test(name) ? [[Number(re.exec(name)![1]), body] as const] : [])));
  const slides = numbered(SLIDE);
  const notes = numbered(NOTES);
  if (!slides.size) throw new ExtractError(PPTX_NOT_A_PRESENTATION);
  const out: string[] = [];
  for (const n of [...slides.keys()].sort((a, b) => a - b)) {
    const text = paragraphs(slides.get(n)!);
    const note = notes.has(n) ? paragraphs(notes.get(n)!).filter((t) => !/^\d+$/.test(t)) : [];
    if (text.length || note.length) out.push([`Slide ${n}`, ...text, ...(note.length ? ['Notes: ' + note.join(' ')] : [])].join('\n'));
  }
  return out.join('\n\n');
}
