// Bench 6, front-end weight: the gzipped JavaScript a browser fetches on first load.
//  - Portal: the entry chunk and everything it imports, plus what the login route and the avatars
//    route load (their chunks and static imports), deduplicated. Goal ≤ 300 KB.
//  - Player: the page's entry and everything it imports, before any renderer is fetched
//    (the image and 3D renderers are dynamic imports). Goal ≤ 100 KB.
// Both apps are built with Vite's manifest into a temporary folder (the real build settings;
// `dist/` is left alone), and the module graph is read from the manifest. Peers: the budget of
// design/references (~300 KB first load) and the lightest chat widgets in the field (~130 KB).
//
//   node --import tsx bench/frontend-weight.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, table, verdict, writeSection } from './report-support';

const PORTAL_GOAL_KB = 300;
const PLAYER_GOAL_KB = 100;
const LIGHTEST_WIDGET_KB = 130;

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, Chunk>;

function buildWithManifest(workspace: string): { dir: string; manifest: Manifest } {
  const dir = mkdtempSync(join(tmpdir(), 'parla-weight-'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--manifest', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: join(ROOT, workspace),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { dir, manifest: JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8')) as Manifest };
}

/** The chunk of `key` and every chunk it imports statically (what loading it fetches). */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`no chunk ${key} in the manifest`);
  into.add(key);
  for (const dep of chunk.imports ?? []) closure(manifest, dep, into);
  return into;
}

function gzKb(dir: string, manifest: Manifest, keys: Iterable<string>): number {
  let total = 0;
  for (const k of keys) {
    const file = manifest[k]!.file;
    if (file.endsWith('.js')) total += gzipSync(readFileSync(join(dir, file)), { level: 9 }).length;
  }
  return total / 1024;
}

function cssKb(dir: string, manifest: Manifest, keys: Iterable<string>): number {
  const files = new Set([...keys].flatMap((k) => manifest[k]!.css ?? []));
  return [...files].reduce((a, f) => a + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0) / 1024;
}

function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!key) throw new Error('no entry in the manifest');
  return key;
}

function main(): void {
  // Portal
  const web = buildWithManifest('apps/web');
  const wEntry = entryKey(web.manifest);
  const route = (name: string) => {
    const key = Object.keys(web.manifest).find((k) => k.endsWith(`src/app/routes/${name}.tsx`));
    if (!key) throw new Error(`no chunk for the route ${name}`);
    return key;
  };
  const entry = closure(web.manifest, wEntry);
  const login = closure(web.manifest, route('auth/login'));
  const avatars = closure(web.manifest, route('avatars/avatars'));
  const firstLoad = new Set([...entry, ...login, ...avatars]);
  const portal = {
    entry: gzKb(web.dir, web.manifest, entry),
    login: gzKb(web.dir, web.manifest, [...login].filter((k) => !entry.has(k))),
    avatars: gzKb(web.dir, web.manifest, [...avatars].filter((k) => !entry.has(k) && !login.has(k))),
    total: gzKb(web.dir, web.manifest, firstLoad),
    css: cssKb(web.dir, web.manifest, firstLoad),
    all: gzKb(web.dir, web.manifest, Object.keys(web.manifest)),
  };

  // Player
  const player = buildWithManifest('apps/player');
  const pEntry = entryKey(player.manifest);
  const pFirst = closure(player.manifest, pEntry);
  const lazy = Object.keys(player.manifest).filter((k) => !pFirst.has(k) && player.manifest[k]!.file.endsWith('.js'));
  const p = {
    first: gzKb(player.dir, player.manifest, pFirst),
    css: cssKb(player.dir, player.manifest, pFirst),
    lazy: lazy.map((k) => ({ name: (player.manifest[k]!.src ?? k).replace(/^.*\//, ''), kb: gzKb(player.dir, player.manifest, [k]) })),
  };
  rmSync(web.dir, { recursive: true, force: true });
  rmSync(player.dir, { recursive: true, force: true });

  const kb = (v: number) => `${v.toFixed(1)} KB`;
  console.log('frontend-weight (gzip -9 of the JavaScript fetched)');
  console.log(`  portal entry chunk and its imports:           ${kb(portal.entry)}`);
  console.log(`  + the login route:                            ${kb(portal.login)}`);
  console.log(`  + the avatars route:                          ${kb(portal.avatars)}`);
  console.log(`  portal first load (entry + login + avatars):  ${kb(portal.total)}   (CSS ${kb(portal.css)}; every chunk of the portal ${kb(portal.all)})`);
  console.log(`    peer: first-load budget ${PORTAL_GOAL_KB} KB; ratio ${(portal.total / PORTAL_GOAL_KB).toFixed(2)}: ${verdict(portal.total <= PORTAL_GOAL_KB)}`);
  console.log(`  player first load, before a renderer:         ${kb(p.first)}   (CSS ${kb(p.css)})`);
  console.log(`    peer: budget ${PLAYER_GOAL_KB} KB; ratio ${(p.first / PLAYER_GOAL_KB).toFixed(2)}: ${verdict(p.first <= PLAYER_GOAL_KB)}`);
  console.log(`    peer: lightest chat widget in the field ${LIGHTEST_WIDGET_KB} KB; ratio ${(p.first / LIGHTEST_WIDGET_KB).toFixed(2)}`);
  for (const l of p.lazy) console.log(`    lazy, fetched only when needed: ${l.name.padEnd(28)} ${kb(l.kb)}`);

  writeSection(
    'frontend-weight',
    'Bench 6 — front-end weight',
    `Gzipped (level 9) JavaScript fetched on first load, read from Vite's manifest of a fresh build.

${table(
  ['', 'gzipped JS', 'peer', 'ratio', 'goal'],
  [
    ['portal: entry chunk + imports', kb(portal.entry), '', '', ''],
    ['portal: + login route', kb(portal.login), '', '', ''],
    ['portal: + avatars route', kb(portal.avatars), '', '', ''],
    ['**portal first load**', `**${kb(portal.total)}**`, `budget ${PORTAL_GOAL_KB} KB`, (portal.total / PORTAL_GOAL_KB).toFixed(2), verdict(portal.total <= PORTAL_GOAL_KB)],
    ['**player first load** (before a renderer)', `**${kb(p.first)}**`, `budget ${PLAYER_GOAL_KB} KB`, (p.first / PLAYER_GOAL_KB).toFixed(2), verdict(p.first <= PLAYER_GOAL_KB)],
    ['player first load', kb(p.first), `lightest chat widget ${LIGHTEST_WIDGET_KB} KB`, (p.first / LIGHTEST_WIDGET_KB).toFixed(2), ''],
  ],
)}

Also measured: portal first-load CSS ${kb(portal.css)}, every chunk of the portal together ${kb(portal.all)};
player CSS ${kb(p.css)}; fetched only when needed: ${p.lazy.map((l) => `${l.name} ${kb(l.kb)}`).join(', ')}.`,
  );
  if (portal.total > PORTAL_GOAL_KB || p.first > PLAYER_GOAL_KB) process.exitCode = 1;
}

main();
