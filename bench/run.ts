// `npm run bench`: every benchmark in this folder, one after another, each printing its peer and
// ratio. `npm run bench -- chat-overhead echo-roundtrip` runs only those.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('-support.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const chosen = wanted.length ? all.filter((b) => wanted.includes(b)) : all;
let failed = 0;
for (const bench of chosen) {
  process.stdout.write(`\n=== ${bench}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, `${bench}.ts`)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
