// Writes generated files under content-hashed names (so the server can cache them forever) and
// keeps the catalogue index the server reads.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CatalogueIndex } from '@parla/shared/schemas/catalogue';

const here = dirname(fileURLToPath(import.meta.url));
export const CATALOGUE_DIR = resolve(here, '../../apps/server/assets/catalogue');
export const INDEX_FILE = join(CATALOGUE_DIR, 'catalogue.json');

export function hashName(base: string, ext: string, data: Buffer | string): string {
  const h = createHash('sha256').update(data).digest('hex').slice(0, 10);
  return `${base}.${h}.${ext}`;
}

export class Output {
  constructor(readonly root = CATALOGUE_DIR) {}

  /** Empties one section's folder before it is regenerated. */
  clear(section: string): void {
    rmSync(join(this.root, section), { recursive: true, force: true });
  }

  write(section: string, base: string, ext: string, data: Buffer | string): string {
    const rel = `${section}/${hashName(base, ext, data)}`;
    const abs = join(this.root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, data);
    return rel;
  }

  readIndex(): CatalogueIndex {
    if (!existsSync(INDEX_FILE)) return { version: 1, avatars: [], backgrounds: [], lights: [], environments: [] };
    return JSON.parse(readFileSync(INDEX_FILE, 'utf8')) as CatalogueIndex;
  }

  writeIndex(index: CatalogueIndex): void {
    mkdirSync(this.root, { recursive: true });
    writeFileSync(INDEX_FILE, JSON.stringify(index, null, 2) + '\n');
  }
}
