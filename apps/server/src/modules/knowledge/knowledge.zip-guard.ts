// Checks a DOCX (a ZIP archive) before anything inflates it for real: the archive's declared
// sizes (total unpacked size, each part's compression ratio, number of parts) and then the real
// inflated sizes, read with yauzl, which stops a part the moment it yields more than it declared.
// Nothing is kept: the bytes are counted and dropped. A refusal is an ExtractError whose message
// the item shows. See docs/decisions/405-document-extraction-out-of-process.md.
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ExtractError } from './knowledge.extract-error';

export const DOCX_LIMITS = {
  /** Sum of every part's unpacked size (a 20 MB upload of text-heavy XML unpacks to far less). */
  maxUnpackedBytes: 64 * 1024 * 1024,
  /** A part larger than `ratioFloorBytes` may unpack to at most this many times its packed size. */
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
  maxEntries: 5000,
} as const;

const MB = 1024 * 1024;
/** The refusals of an Office archive, named for the user (the same limits for DOCX, XLSX, PPTX). */
export function archiveMessages(label: string) {
  return {
    tooLarge: `The ${label} document is too large once unpacked (more than ${DOCX_LIMITS.maxUnpackedBytes / MB} MB).`,
    ratio: `The ${label} document is compressed suspiciously much (a part unpacks to more than ${DOCX_LIMITS.maxRatio} times its size).`,
    damaged: `The ${label} document is damaged: a part does not unpack to the size it declares.`,
    unreadable: `The ${label} document could not be read.`,
  };
}
type Messages = ReturnType<typeof archiveMessages>;
const WORD = archiveMessages('Word (DOCX)');
export const DOCX_TOO_LARGE = WORD.tooLarge;
export const DOCX_RATIO = WORD.ratio;
export const DOCX_DAMAGED = WORD.damaged;

function open(data: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true }, (err, zip) =>
      err || !zip ? reject(err) : resolve(zip),
    ),
  );
}

function checkDeclared(entry: Entry, total: number, m: Messages): void {
  if (total > DOCX_LIMITS.maxUnpackedBytes) throw new ExtractError(m.tooLarge);
  if (
    entry.uncompressedSize > DOCX_LIMITS.ratioFloorBytes &&
    entry.uncompressedSize > DOCX_LIMITS.maxRatio * Math.max(entry.compressedSize, 1)
  ) {
    throw new ExtractError(m.ratio);
  }
}

/** Inflates one part, counting; fails as soon as it exceeds what it declared (yauzl) or the cap. */
function drainEntry(zip: ZipFile, entry: Entry, budget: number, m: Messages): Promise<number> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(new ExtractError(m.damaged));
      let n = 0;
      stream.on('data', (chunk: Buffer) => {
        n += chunk.length;
        if (n > entry.uncompressedSize || n > budget) stream.destroy(new ExtractError(m.damaged));
      });
      stream.on('error', (e) => reject(e instanceof ExtractError ? e : new ExtractError(m.damaged)));
      stream.on('end', () => resolve(n));
    });
  });
}

/** Resolves when the archive is within the limits; rejects with an ExtractError otherwise. */
export async function checkDocxArchive(data: Buffer, m: Messages = WORD): Promise<void> {
  let zip: ZipFile;
  try {
    zip = await open(data);
  } catch {
    throw new ExtractError(m.unreadable);
  }
  if (zip.entryCount > DOCX_LIMITS.maxEntries) {
    zip.close();
    throw new ExtractError(m.unreadable);
  }
  const entries: Entry[] = [];
  // First pass: the central directory's declared sizes, before inflating anything.
  await new Promise<void>((resolve, reject) => {
    let total = 0;
    zip.on('entry', (entry: Entry) => {
      total += entry.uncompressedSize;
      try {
        checkDeclared(entry, total, m);
      } catch (e) {
        zip.close();
        return reject(e);
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', () => reject(new ExtractError(m.unreadable)));
    zip.readEntry();
  });
  // Second pass: the real sizes, each part stopped at its declared size and at the total cap.
  let used = 0;
  try {
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      used += await drainEntry(zip, entry, DOCX_LIMITS.maxUnpackedBytes - used, m);
    }
  } finally {
    zip.close();
  }
}
