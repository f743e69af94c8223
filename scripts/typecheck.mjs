// `npm run typecheck`: every TypeScript project of the repository, checked by TypeScript 7 (the
// native compiler, the `typescript-7` alias of typescript@7.0.2): the same diagnostics as 6.0 in
// less than half the CPU time (decision 903's amendment). TypeScript 6.0.3 stays the `typescript`
// package, the one typescript-eslint 8 and the editors load. The compiler is run from its own
// path: with two packages offering a `tsc` command, npm links either one as node_modules/.bin/tsc.
// --singleThreaded: the six projects took 14.5 CPU-s and 12.0 s on one thread against 28.9 CPU-s
// and 15.8 s with its parallel checkers, even on an idle machine (decision 903's amendment).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')), 'bin/tsc');
const projects = ['packages/shared', 'apps/server', 'bench', 'apps/web', 'apps/player', 'e2e'];
let failed = 0;
for (const project of projects) {
  const r = spawnSync(process.execPath, [tsc, '-p', project, '--singleThreaded'], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
