// Hostile documents for the document-bomb attack test, made in the test (no binaries shipped):
// a DOCX whose document.xml inflates to 100 MB (declared honestly, or declared tiny), one whose
// part is compressed a thousand to one, and a small PDF whose pages all draw one huge inflated
// content stream.
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';

const MB = 1024 * 1024;

/** A ZIP of deflated entries; `declare` overrides the sizes written in both headers (a lie). */
export function deflatedZip(entries: { name: string; data: Buffer; declare?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const packed = deflateRawSync(e.data, { level: 9 });
    const size = e.declare ?? e.data.length;
    const crc = crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** A well-formed document.xml of about `bytes` bytes: the same short paragraph over and over. */
function hugeDocumentXml(bytes: number): Buffer {
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
  const para = '<w:p><w:r><w:t>All work and no play makes a dull document.</w:t></w:r></w:p>';
  const tail = '</w:body></w:document>';
  const count = Math.floor((bytes - head.length - tail.length) / para.length);
  const out = Buffer.alloc(head.length + count * para.length + tail.length);
  out.write(head, 0);
  const unit = Buffer.from(para);
  let at = head.length;
  // Doubling copies: fast even for 100 MB.
  unit.copy(out, at);
  let filled = unit.length;
  while (filled < count * para.length) {
    const n = Math.min(filled, count * para.length - filled);
    out.copy(out, at + filled, at, at + n);
    filled += n;
  }
  at += filled;
  out.write(tail, at);
  return out;
}

const CONTENT_TYPES = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);
const RELS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
);

/** A DOCX whose document.xml unpacks to `mb` MB; `declare` writes a false (small) size instead. */
export function docxBomb(mb: number, declare?: number): Buffer {
  return deflatedZip([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: '_rels/.rels', data: RELS },
    { name: 'word/document.xml', data: hugeDocumentXml(mb * MB), ...(declare === undefined ? {} : { declare }) },
  ]);
}

/** A small PDF of `pages` pages that all draw one content stream of `ops` text operators (deflated). */
export function heavyPdf(pages: number, ops: number): Buffer {
  const content = Buffer.from(`BT /F1 1 Tf 0 0 Td ${'(heavy words) Tj '.repeat(ops)}ET`, 'latin1');
  const stream = deflateSync(content, { level: 9 });
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ');
  const parts: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    [`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`],
    [`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream'],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'],
    ...Array.from({ length: pages }, () => [
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>',
    ]),
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let size = chunks[0]!.length;
  const offsets: number[] = [];
  parts.forEach((body, i) => {
    offsets.push(size);
    const buf = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      ...body.map((b) => (typeof b === 'string' ? Buffer.from(b, 'latin1') : b)),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    chunks.push(buf);
    size += buf.length;
  });
  let tail = `xref\n0 ${parts.length + 1}\n0000000000 65535 f \n`;
  tail += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  tail += `trailer\n<< /Size ${parts.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  chunks.push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(chunks);
}
