// The garbage a search makes (issue 37, decision 424): Bench 4's p99 was late by V8's collections
// during its timed series, so what a search allocates is measured, with figures that do not depend
// on the machine's load: bytes of JavaScript heap allocated per search, and the collections (count,
// pause) a series of searches caused. Used by knowledge-search-answers.ts (SEARCH_GC=1,
// SEARCH_HEAPPROF=file).
//
// Bytes allocated: V8 reports no running total, so it is summed from the heap's used size between
// collections (v8.GCProfiler gives it before and after each one): allocated = Σ (used before a
// collection − used after the previous one) + (used at the end − used after the last one).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { GCProfiler, getHeapStatistics } from 'node:v8';

interface GcStat {
  gcType: string;
  cost: number;
  beforeGC: { heapStatistics: { usedHeapSize: number } };
  afterGC: { heapStatistics: { usedHeapSize: number } };
}

export interface GarbageFigures {
  /** JS heap bytes allocated per run. */
  bytesPerRun: number;
  /** Collections during the series, by kind. */
  scavenges: number;
  markCompacts: number;
  /** Their total and longest pause, ms. */
  pauseMs: number;
  longestMs: number;
  /** ArrayBuffer memory (outside the heap) at the end, bytes. */
  arrayBuffers: number;
}

/** Runs `fn` `runs` times and measures what the series allocated and collected. */
export async function garbageOf(fn: () => Promise<unknown>, runs: number): Promise<GarbageFigures> {
  const profiler = new GCProfiler();
  profiler.start();
  const start = getHeapStatistics().used_heap_size;
  for (let i = 0; i < runs; i++) await fn();
  const end = getHeapStatistics().used_heap_size;
  const stats = (profiler.stop()?.statistics ?? []) as GcStat[];
  let allocated = 0;
  let after = start;
  for (const s of stats) {
    allocated += s.beforeGC.heapStatistics.usedHeapSize - after;
    after = s.afterGC.heapStatistics.usedHeapSize;
  }
  allocated += end - after;
  const costs = stats.map((s) => s.cost / 1000);
  return {
    bytesPerRun: allocated / runs,
    scavenges: stats.filter((s) => s.gcType === 'Scavenge').length,
    markCompacts: stats.filter((s) => s.gcType === 'MarkSweepCompact').length,
    pauseMs: costs.reduce((a, b) => a + b, 0),
    longestMs: Math.max(0, ...costs),
    arrayBuffers: process.memoryUsage().arrayBuffers,
  };
}

/**
 * A sampling heap profile of `runs` runs of `fn`, objects collected since included (so it shows
 * where garbage is made, not only what stays), written to `file` (.heapprofile, DevTools); prints
 * the functions that allocated the most, by self size.
 */
export async function heapProfileOf(fn: () => Promise<unknown>, runs: number, file: string): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  for (let i = 0; i < runs; i++) await fn();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
  interface Node {
    callFrame: { functionName: string; url: string; lineNumber: number };
    selfSize: number;
    children: Node[];
  }
  const self = new Map<string, number>();
  let total = 0;
  const walk = (n: Node) => {
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + n.selfSize);
    total += n.selfSize;
    n.children.forEach(walk);
  };
  walk(profile.head);
  console.log(`sampled ${(total / runs / 1024).toFixed(1)} KiB per run; by function (self):`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${(v / runs / 1024).toFixed(1).padStart(7)} KiB  ${k}`);
}
