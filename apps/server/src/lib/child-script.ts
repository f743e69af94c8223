// A child process's entry as plain JavaScript: the entry and the repository code it imports,
// bundled by esbuild once per server process into a private directory, one chunk per dynamic
// import. The child then starts as bare Node: run through tsx, its TypeScript loader cost more
// than the work (decision 405's amendment). Packages stay outside the bundle: each import is
// written as the file Node itself resolves from here, so the directory can live in the process's
// run directory (lib/run-dir.ts), like the function sandbox's (runtime/sandbox/confinement.ts).
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { runTemp } from './run-dir';

/** A package import becomes an import of the file Node resolves for it; the repository's own
 *  packages (@parla/…, TypeScript sources) and relative imports are bundled. */
const packagesAsFiles: Plugin = {
  name: 'packages-as-files',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@parla/') ? undefined : { path: import.meta.resolve(args.path), external: true },
    );
  },
};

async function stage(entry: string, prefix: string): Promise<string> {
  const out = await build({
    entryPoints: { child: entry },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    outdir: '/',
    write: false,
    plugins: [packagesAsFiles],
    logLevel: 'silent',
  });
  const dir = runTemp(prefix);
  for (const file of out.outputFiles) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents, { mode: 0o444 });
  }
  chmodSync(dir, 0o755);
  return join(dir, 'child.mjs');
}

/**
 * The bundled script of the child whose entry is `entry`, bundled on first use. A failed bundle
 * is tried again on the next call, and so is one whose directory went (a temporary-files
 * cleaner on a server that started no such child for days).
 */
export function childScript(entry: string, prefix: string): () => Promise<string> {
  let staged: Promise<string> | null = null;
  return async () => {
    if (staged && !existsSync(await staged.catch(() => ''))) staged = null;
    staged ??= stage(entry, prefix).catch((err: unknown) => {
      staged = null;
      throw err;
    });
    return staged;
  };
}
