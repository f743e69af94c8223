// Prints the player's first-load JavaScript (gzipped: the entry and everything index.html
// preloads) and the lazily loaded renderers, against the budget of issue 3 (≤ 100 KB before
// the renderer) and the lightest chat widgets in the field (about 130 KB, design/references).
// Builds the player first when it has not been built.
//   node --import tsx bench/player-size.ts
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'apps/player/dist');
const BUDGET_KB = 100;
const LIGHTEST_WIDGET_KB = 130;

if (!existsSync(join(dist, 'index.html'))) execSync('npm run build -w @parla/player', { cwd: root, stdio: 'inherit' });

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const gz = (file: string) => gzipSync(readFileSync(join(dist, file.replace(/^\/player\//, ''))), { level: 9 }).length / 1024;
const initial = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map((m) => m[1]!);
const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g)].map((m) => m[1]!);
const assets = readdirSync(join(dist, 'assets'));
const lazy = assets.filter((f) => f.endsWith('.js') && !initial.some((i) => i.endsWith(f)));

const initialKb = initial.reduce((a, f) => a + gz(f), 0);
const cssKb = css.reduce((a, f) => a + gz(f), 0);
const row = (name: string, kb: number) => console.log(`${name.padEnd(44)} ${kb.toFixed(1).padStart(7)} KB gz`);

console.log('Player size (gzip -9)');
row('first load JS (dial page, chat)', initialKb);
row('first load CSS', cssKb);
for (const f of lazy) row(`lazy: ${f.replace(/-[\w-]{8}\.js$/, '')}`, gz(`assets/${f}`));
const three = lazy.filter((f) => f.startsWith('three-renderer')).reduce((a, f) => a + gz(`assets/${f}`), 0);
console.log('');
console.log(`first-load JS / budget (${BUDGET_KB} KB):              ${(initialKb / BUDGET_KB).toFixed(2)}`);
console.log(`first-load JS / lightest chat widget (${LIGHTEST_WIDGET_KB} KB): ${(initialKb / LIGHTEST_WIDGET_KB).toFixed(2)}`);
console.log(`3D renderer (three.js), fetched for 3D types only:  ${three.toFixed(1)} KB gz`);
if (initialKb > BUDGET_KB) {
  console.error(`over budget: ${initialKb.toFixed(1)} KB > ${BUDGET_KB} KB`);
  process.exit(1);
}
