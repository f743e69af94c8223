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

const SUMMARY_START = '<!-- summary -->';
const SUMMARY_END = '<!-- /summary -->';
/** Above this one-minute load average the machine was busy with other work when a bench ended. */
const BUSY_LOAD = 2;

/** The summary at the top of docs/performance.md, made from the sections as they stand: each
 *  bench's latest run, its date and load average, and every line of it that says MISSED (issue 37:
 *  a hand-kept "Goals missed: none" went stale while goals were missed). */
export function summarize(doc: string): string {
  const rows: string[][] = [];
  const missed: string[] = [];
  for (const m of doc.matchAll(/<!-- bench:([\w-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) {
    const text = m[2]!;
    const title = /^## (.+)$/m.exec(text)?.[1] ?? m[1]!;
    const run = /^Run (\S+ \S+) UTC on .*?load average (\S+) \S+ \S+ at the end/m.exec(text);
    const load = run ? Number(run[2]) : NaN;
    const lines = text.split('\n').filter((l) => /\bMISSED\b/.test(l));
    const met = text.split('\n').filter((l) => /\bmet\b/.test(l) && !/\bMISSED\b/.test(l)).length;
    const verdicts = lines.length ? `${lines.length} MISSED` : met ? 'every goal met' : 'no goal verdict';
    rows.push([title, run ? `${run[1]} UTC` : 'unknown', run ? `${run[2]}${load > BUSY_LOAD ? ' (busy)' : ''}` : '', verdicts]);
    for (const l of lines)
      missed.push(
        `- ${title} (${run ? run[1] : 'undated'}): ${l
          .replace(/^[-*\s|]+/, '')
          .replace(/\s*\|\s*$/, '')
          .slice(0, 300)}`,
      );
  }
  return [
    SUMMARY_START,
    '## Summary of the latest runs',
    '',
    'Generated from the sections below each time a bench writes its section (`bench/report-support.ts`);',
    'nothing here is kept by hand. "(busy)": the one-minute load average was above 2 when that run',
    'ended, so its absolute figures (and ratios that depend on an idle machine) read worse than on a',
    'quiet machine. A goal missed stays listed until a later run of its bench meets it.',
    '',
    table(['bench', 'latest run', 'load average', 'goals'], rows),
    '',
    '### Goals missed in the latest runs',
    '',
    ...(missed.length ? missed : ['None in the latest runs.']),
    SUMMARY_END,
  ].join('\n');
}

function withSummary(doc: string): string {
  const a = doc.indexOf(SUMMARY_START);
  const b = doc.indexOf(SUMMARY_END);
  if (a >= 0 && b > a) return doc.slice(0, a) + summarize(doc) + doc.slice(b + SUMMARY_END.length);
  const first = doc.indexOf('<!-- bench:');
  return first >= 0 ? `${doc.slice(0, first)}${summarize(doc)}\n\n${doc.slice(first)}` : doc;
}

/** Rewrites only the summary of docs/performance.md from its sections. */
export function writeSummary(): void {
  if (!existsSync(DOC)) return;
  writeFileSync(DOC, withSummary(readFileSync(DOC, 'utf8')));
}

/** Replaces (or appends) the section `id` of docs/performance.md, then the summary. */
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
  writeFileSync(DOC, withSummary(doc));
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
