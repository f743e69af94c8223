// Splitting extracted text into chunks of about 800 tokens with overlap (docs/decisions/400), as
// a reader sees it: Markdown/HTML markup that is never displayed is dropped first (renderedText).
// Tokens are estimated as characters / 4 (close for English and most Latin-script text; no
// tokenizer is bundled). Paragraphs stay whole where they fit; longer ones split at sentence
// ends, and a sentence longer than a chunk splits between words. Each chunk after the first
// starts with the last ~100 tokens of the one before, so an answer that spans a boundary is
// still found in one piece.

export const CHUNK_MAX_TOKENS = 800;
export const CHUNK_OVERLAP_TOKENS = 100;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Line endings unified, control characters (and NUL, which PostgreSQL text refuses) removed,
 *  runs of spaces collapsed, at most one blank line between paragraphs. */
export function normalizeText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/[ \t\u00A0]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

function splitLong(unit: string, maxChars: number): string[] {
  if (unit.length <= maxChars) return [unit];
  const sentences = unit.split(/(?<=[.!?。！？])\s+/);
  if (sentences.length > 1) return sentences.flatMap((s) => splitLong(s, maxChars));
  const words = unit.split(/\s+/);
  const out: string[] = [];
  let cur = '';
  for (const w of words) {
    if (w.length > maxChars) {
      if (cur) out.push(cur);
      cur = '';
      for (let i = 0; i < w.length; i += maxChars) out.push(w.slice(i, i + maxChars));
      continue;
    }
    if (cur && cur.length + 1 + w.length > maxChars) {
      out.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) out.push(cur);
  return out;
}

/** HTML elements whose tags a reader never sees (as in Markdown manuals): a block's tags part
 *  words (table cells), an inline one's do not; a tag of another name ("#include <zlib.h>") stays. */
const BLOCK_TAGS = /<\/?(?:br|dd|div|dl|dt|li|ol|p|pre|table|tbody|td|tfoot|th|thead|tr|ul)(?:\s[^<>]*)?\/?>/gi;
const INLINE_TAGS = /<\/?(?:a|abbr|b|code|em|i|kbd|samp|span|strong|sub|sup|tt|u|var)(?:\s[^<>]*)?\/?>/gi;

/**
 * What a reader of rendered Markdown or HTML sees (decision 419): comments, tags and reference-link
 * markup dropped, the link text kept. A Markdown manual pasted as a text item
 * otherwise ranks on its markup: `<!-- YAML added: … description: … -->` blocks, `<td><code>`
 * cells and `[`path.sep`][]` links hold words ("version", "string", "code") that many questions
 * share. Code spans and blocks stay: they are content.
 */
function renderedText(text: string): string {
  let out = withoutComments(text).replace(BLOCK_TAGS, ' ').replace(INLINE_TAGS, '');
  // Reference links: `[text][]` or `[text][label]` read as their text; a definition pointing inside
  // the document (`[label]: #anchor`, `errors.md#…`) is dropped, one naming a web address kept.
  if (/\]\[[^\]\n]*\]/.test(out)) out = out.replace(/^ {0,3}\[[^\]\n]+\]:[ \t]+(?![a-z][a-z0-9+.-]*:\/\/)\S+[ \t]*$/gim, '');
  // No `[` inside the text or the label: each try stops at the next bracket, so the pass is linear
  // (with `[^\]\n]+` a line of a million `[` took minutes on the event loop).
  return out.replace(/\[([^[\]\n]+)\]\[[^[\]\n]*\]/g, '$1');
}

/** `<!-- … -->` removed; an unclosed one is kept as text. A scan, not a lazy regex: linear in the text. */
function withoutComments(text: string): string {
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('<!--', at);
    const close = open < 0 ? -1 : text.indexOf('-->', open + 4);
    if (close < 0) break;
    parts.push(text.slice(at, open));
    at = close + 3;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

export function chunkText(text: string, opts: { maxTokens?: number; overlapTokens?: number } = {}): string[] {
  const maxChars = (opts.maxTokens ?? CHUNK_MAX_TOKENS) * 4;
  const overlapChars = (opts.overlapTokens ?? CHUNK_OVERLAP_TOKENS) * 4;
  const clean = normalizeText(renderedText(text));
  if (!clean) return [];
  // Units: paragraphs, or the sentences/word runs of paragraphs too long for one chunk. A unit
  // is at most a quarter of a chunk when it has to be cut, so overlaps stay small.
  const units = clean.split(/\n\n+/).flatMap((p) => (p.length <= maxChars ? [p] : splitLong(p, Math.max(200, Math.floor(maxChars / 4)))));
  const chunks: string[] = [];
  let cur: string[] = [];
  let curLen = 0;
  const joinLen = (len: number) => (len === 0 ? 0 : len + 2);
  for (const unit of units) {
    if (curLen > 0 && curLen + joinLen(unit.length) > maxChars) {
      chunks.push(cur.join('\n\n'));
      // Carry the tail of the chunk (whole units, at most overlapChars) into the next one.
      const tail: string[] = [];
      let tailLen = 0;
      for (let i = cur.length - 1; i >= 0; i--) {
        const u = cur[i]!;
        if (tailLen + joinLen(u.length) > overlapChars) break;
        tail.unshift(u);
        tailLen += joinLen(u.length);
      }
      if (tail.length === 0 && overlapChars > 0) {
        const last = cur[cur.length - 1]!;
        const piece = last.slice(Math.max(0, last.length - overlapChars));
        const cut = piece.indexOf(' ');
        tail.push(cut > 0 && cut < piece.length - 1 ? piece.slice(cut + 1) : piece);
      }
      cur = tail;
      curLen = tail.reduce((n, u, i) => n + u.length + (i ? 2 : 0), 0);
    }
    cur.push(unit);
    curLen += curLen === 0 ? unit.length : unit.length + 2;
  }
  if (cur.length) chunks.push(cur.join('\n\n'));
  return chunks;
}
