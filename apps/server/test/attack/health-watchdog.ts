// The event-loop watchdog of the attack tests (issue 33): while an attack runs, /api/health is
// asked over a real socket, one request after another, and each round is timed. A round that a
// blocked event loop stretches (the server's, which is also this process's) shows as a slow
// round, so every entry point that takes customer content can assert "/api/health answered
// within a second throughout" with one helper. Not a benchmark: a safety bar the issue sets.
import { expect } from 'vitest';

export interface HealthReport {
  /** Rounds answered 200. */
  answers: number;
  /** Rounds that failed (an error or another status). */
  failures: number;
  /** The slowest round, ms (request, and any lateness of the pause between requests). */
  longestMs: number;
  /** The 99th percentile of the rounds, ms. */
  p99Ms: number;
}

export interface HealthWatch {
  stop(): Promise<HealthReport>;
}

/** Starts polling `${base}/api/health` (base: a listening server's URL) until stop(). */
export function watchHealth(base: string, opts: { pauseMs?: number } = {}): HealthWatch {
  const pause = opts.pauseMs ?? 50;
  const rounds: number[] = [];
  let failures = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      } catch {
        failures++;
      }
      // The pause is part of the round: a timer that fires late means a blocked loop too.
      await new Promise((r) => setTimeout(r, pause));
      rounds.push(Math.max(0, performance.now() - started - pause));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const sorted = [...rounds].sort((a, b) => a - b);
      const p99 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]! : 0;
      return { answers: rounds.length - failures, failures, longestMs: sorted.at(-1) ?? 0, p99Ms: p99 };
    },
  };
}

/** The bar: answered throughout (at least `minAnswers` rounds, none failed), each round
 *  within a second. */
export function expectHealthy(report: HealthReport, what: string, minAnswers = 5): void {
  expect(report.failures, `${what}: failed /api/health rounds`).toBe(0);
  expect(report.answers, `${what}: /api/health rounds answered`).toBeGreaterThanOrEqual(minAnswers);
  expect(report.longestMs, `${what}: slowest /api/health round, ms (p99 ${report.p99Ms.toFixed(0)})`).toBeLessThan(1000);
}

/** Error-level (or worse) log lines, which an attack must never cause (pino: level ≥ 50). */
export function errorLines(logs: string[]): string[] {
  return logs.filter((line) => {
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
    } catch {
      return false;
    }
  });
}
