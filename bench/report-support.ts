// Shared by the benches: the machine a run happened on, percentiles, and docs/performance.md,
// where each bench keeps one section (replaced by its next run, the others left as they are).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(ROOT, 'docs/performance.md');

const INTRO = `# Performance

Figures measured by \`npm run bench\` (scripts in \`bench/\`). Every bench measures Parla and a
peer in the same run on the same machine and prints the ratio; each keeps one section here,
replaced by its next run (\`BENCH_NO_DOC=1\` leaves this file alone). The machine is shared and
small (2 cores): compare the ratios, not the absolute figures, between runs.
`;

export function machine(): string {
  const cpu = cpus();
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}, load average ${load} at the end`;
}

/** Replaces (or appends) the section `id` of docs/performance.md. */
export function writeSection(id: string, title: string, body: string): void {
  if (process.env.BENCH_NO_DOC) return;
  const start = `<!-- bench:${id} -->`;
  const end = `<!-- /bench:${id} -->`;
  const when = new Date().toISOString().replace('T', ' ').slice(0, 16);
  const section = `${start}\n## ${title}\n\nRun ${when} UTC on ${machine()}.\n\n${body.trim()}\n${end}`;
  let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : INTRO;
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a >= 0 && b > a) doc = doc.slice(0, a) + section + doc.slice(b + end.length);
  else doc = `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(DOC, doc);
  console.log(`(docs/performance.md: section "${title}" written)`);
}

export function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

/** A goal line: the measured figure against the goal, met or missed. */
export function verdict(met: boolean): string {
  return met ? 'met' : 'MISSED';
}

/** A markdown table from a header and rows. */
export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
