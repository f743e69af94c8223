// The test models of "bring your own 3D avatar" (decision 123), made by the catalogue generator
// (scripts/catalogue/own-models.ts) from a committed catalogue character: no third-party file.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileModels, ownModelVariants } from '../../../scripts/catalogue/own-models';

const CATALOGUE = join(dirname(fileURLToPath(import.meta.url)), '../assets/catalogue');

/** The upper-body catalogue character the variants are made from. */
function character(): Buffer {
  const index = JSON.parse(readFileSync(join(CATALOGUE, 'catalogue.json'), 'utf8')) as { avatars: { type: string; model: string }[] };
  const first = index.avatars.find((a) => a.type === '2d')!;
  return readFileSync(join(CATALOGUE, first.model));
}

let cached: { talking: ReturnType<typeof ownModelVariants>; hostile: ReturnType<typeof hostileModels> } | null = null;

export function testModels() {
  if (!cached) {
    const glb = character();
    cached = { talking: ownModelVariants(glb), hostile: hostileModels(glb) };
  }
  return cached;
}
