// `node scripts/run-ts.mjs ENTRY.ts [args…]`: runs a TypeScript entry (the server, a pipeline
// node, the end-to-end server) as one JavaScript bundle that esbuild makes at each start (about
// 0.2 s), instead of through tsx's loader, which transforms and resolves module by module: a
// server's start took 1.3 CPU-s less (decision 001's amendment). Packages stay outside the bundle
// and load from node_modules; the repository's own TypeScript (@parla/… and relative imports) is
// bundled, a dynamic import as a chunk of its own (loaded when it runs, as before). Each module
// keeps its own `import.meta.url`, so paths it finds from its file (assets, migrations, the
// sandbox's runtime) are those of its source. Stack traces point at the TypeScript sources.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const [entryArg, ...args] = process.argv.slice(2);
if (!entryArg) {
  console.error('usage: node scripts/run-ts.mjs ENTRY.ts [args…]');
  process.exit(2);
}
const entry = resolve(entryArg);
const name = basename(entry).replace(/\.tsx?$/, '');
// Inside the repository's node_modules, so the bundle's package imports resolve as its sources'.
const outdir = join(import.meta.dirname, '..', 'node_modules', '.cache', 'run-ts', name);

/** `import.meta.url`, `.filename` and `.dirname` in a bundled module: its source file's, found
 *  from the bundle's URL (the two stay where they are relative to each other). */
const OWN = /import\.meta\.(url|filename|dirname)\b/g;
function ownMeta(file, kind) {
  const url = `new URL(${JSON.stringify(relative(outdir, file).split('\\').join('/'))}, import.meta.url)`;
  if (kind === 'url') return `${url}.href`;
  if (kind === 'filename') return `decodeURIComponent(${url}.pathname)`;
  return `decodeURIComponent(new URL('.', ${url}).pathname).slice(0, -1)`;
}

const out = await build({
  entryPoints: { [name]: entry },
  entryNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  outdir,
  write: false,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'packages-outside',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@parla/') ? undefined : { path: a.path, external: true }));
        b.onLoad({ filter: /\.tsx?$/ }, async (a) => {
          const source = await readFile(a.path, 'utf8');
          return {
            contents: source.replace(OWN, (_, kind) => ownMeta(a.path, kind)),
            loader: a.path.endsWith('x') ? 'tsx' : 'ts',
          };
        });
      },
    },
  ],
});

// Every file is named by its content: processes starting at once write the same bytes, each by
// a rename, so none reads a half-written file. Files of earlier sources go after a week (a
// process still running from them loads its lazy chunks from there).
mkdirSync(outdir, { recursive: true });
for (const file of out.outputFiles) {
  const temp = `${file.path}.${process.pid}`;
  writeFileSync(temp, file.contents);
  renameSync(temp, file.path);
}
const made = new Set(out.outputFiles.map((f) => f.path));
for (const f of readdirSync(outdir)) {
  const path = join(outdir, f);
  if (made.has(path)) continue;
  try {
    if (Date.now() - statSync(path).mtimeMs > 7 * 86_400_000) rmSync(path, { force: true });
  } catch {
    // Another process's file, renamed since the folder was read (its temporary name): not ours.
  }
}

// The metafile names files relative to the working directory; a dynamic import's chunk has an
// entry point too.
const bundle = Object.keys(out.metafile.outputs).find((path) => out.metafile.outputs[path].entryPoint === relative('.', entry));
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(resolve(bundle)).href);
