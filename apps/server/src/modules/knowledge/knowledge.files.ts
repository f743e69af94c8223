// Uploads of knowledge documents (POST /kb/v1/files): the type comes from the name's extension,
// its limit is enforced while streaming, and the content must really be that type (PDF header,
// ZIP header for DOCX, XLSX and PPTX, UTF-8 text without NUL bytes). A refused file leaves nothing behind.
import { readFile } from 'node:fs/promises';
import type { MultipartFile } from '@fastify/multipart';
import {
  fileTooLargeMessage,
  INVALID_FILE_MESSAGE,
  KNOWLEDGE_FILE_TYPES,
  knowledgeFileKind,
  type KnowledgeFileKind,
  type UploadedFile,
} from '@parla/shared/schemas/knowledge';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import type { StagedFile } from '../../lib/file-store';
import { decodeText, looksLikePdf, looksLikeZip } from './knowledge.extract';
import { FILE_URL_PREFIX } from './knowledge.service';

const EXT: Record<KnowledgeFileKind, string> = {
  text: 'txt',
  docx: 'docx',
  pdf: 'pdf',
  html: 'html',
  csv: 'csv',
  xlsx: 'xlsx',
  pptx: 'pptx',
};

function mimeOf(kind: KnowledgeFileKind, name: string): UploadedFile['file_type'] {
  if (kind === 'pdf') return 'application/pdf';
  if (kind === 'docx' || kind === 'xlsx' || kind === 'pptx') return KNOWLEDGE_FILE_TYPES[kind].mimeTypes[0];
  if (kind === 'html') return 'text/html';
  if (kind === 'csv') return 'text/csv';
  return /\.(md|markdown)$/i.test(name) ? 'text/markdown' : 'text/plain';
}

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/g;

/** A display name: the base name, without control characters or path separators. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop()!.replace(CONTROL_CHARACTERS, '').trim();
  return base.slice(0, 200) || 'document';
}

async function contentMatches(kind: KnowledgeFileKind, staged: StagedFile): Promise<boolean> {
  if (staged.size === 0) return false;
  if (kind === 'pdf') return looksLikePdf(staged.head);
  if (kind === 'docx' || kind === 'xlsx' || kind === 'pptx') return looksLikeZip(staged.head);
  return decodeText(await readFile(staged.absPath)) !== null;
}

async function drain(part: MultipartFile): Promise<void> {
  for await (const _chunk of part.file) {
    // discard: the answer is already decided
  }
}

export async function uploadKnowledgeFile(ctx: AppContext, ownerId: string, part: MultipartFile | undefined): Promise<UploadedFile> {
  if (!part || part.fieldname !== 'file') {
    if (part) await drain(part);
    throw AppError.invalid('File is required', 'FILE_REQUIRED');
  }
  const name = cleanName(part.filename ?? '');
  const kind = knowledgeFileKind(name);
  if (!kind) {
    await drain(part);
    throw AppError.invalid(INVALID_FILE_MESSAGE, 'INVALID_FILE');
  }
  let staged: StagedFile;
  try {
    staged = await ctx.files.stage(ownerId, part.file, {
      maxBytes: KNOWLEDGE_FILE_TYPES[kind].maxBytes,
      ext: EXT[kind],
      tooLargeMessage: fileTooLargeMessage(kind),
    });
  } catch (err) {
    // Read the rest so the browser receives the answer instead of a reset connection.
    await drain(part).catch(() => {});
    throw err;
  }
  try {
    if (part.file.truncated) throw AppError.tooLarge(fileTooLargeMessage(kind));
    if (!(await contentMatches(kind, staged))) throw AppError.invalid(INVALID_FILE_MESSAGE, 'INVALID_FILE');
    const type = mimeOf(kind, name);
    // Row and bytes in one transaction: a failure leaves neither (decision 015).
    await ctx.db
      .transaction()
      .execute((trx) => ctx.files.record(trx, staged, { kind: 'knowledge', contentType: type, originalName: name }));
    return { url: `${FILE_URL_PREFIX}${staged.id}`, file_name: name, file_type: type };
  } finally {
    await ctx.files.discard(staged);
  }
}
