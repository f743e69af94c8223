// Sandbox processes under a flood of calls (issue 33, item 5): six function calls used to run
// seven children (each call took the warm one and started another), about 190 MB each, so
// anonymous visitors of a tool-using avatar could fork the server out of memory. Many calls are
// fired at once at a real Sandbox with small caps; the live children are counted from /proc (the
// kernel's view: processes whose parent is this one running the sandbox's script), and calls that
// waited longer than the queue allows get the queue's message instead of a process.
// See docs/decisions/412-sandbox-caps-intrinsics-and-connection-caps.md.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionTool } from '../../src/runtime/types';
import { SANDBOX_BUSY_MESSAGE, Sandbox } from '../../src/runtime/sandbox/sandbox';
import { pythonSnapshot } from '../../src/runtime/sandbox/confinement';

/** This process's live sandbox children, read from /proc. */
function liveChildren(): number {
  let n = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sandbox-child.mjs')) n++;
    } catch {
      /* the process ended while being read */
    }
  }
  return n;
}

/** Samples the live children until stopped; returns the largest count seen. */
function watchChildren(): { stop(): number } {
  let max = liveChildren();
  const timer = setInterval(() => (max = Math.max(max, liveChildren())), 25);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(max, liveChildren());
    },
  };
}

/** A function that holds its process for `ms` and says when it ran (wall-clock seconds). */
const busy = (ownerId: string, ms: number): FunctionTool => ({
  id: 'busy',
  name: 'busy',
  description: '',
  parameters: {},
  code: `import time\ndef busy() -> list:\n    t = time.time()\n    while time.time() - t < ${ms / 1000}:\n        pass\n    return [t, time.time()]\n`,
  approved: true,
  ownerId,
});

let sandbox: Sandbox | null = null;
// The Python snapshot every child starts from is made once per process, before the flood.
beforeAll(async () => {
  await pythonSnapshot();
}, 120_000);
afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
});

describe('sandbox processes under many concurrent calls', () => {
  it('never runs more children than the cap, and a call that waited too long gets the queue message', async () => {
    sandbox = new Sandbox({ wallClockMs: 8000, memoryMb: 192, startMs: 60_000, maxProcesses: 2, maxPerOwner: 2, queueWaitMs: 1000 });
    sandbox.warm();
    const watch = watchChildren();
    // Six calls of six owners at once: per-owner caps do not help, only the global one.
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => sandbox!.run(busy(`owner-${i}`, 300), {})));
    const maxLive = watch.stop();
    const busyAnswers = answers.filter((a) => JSON.parse(a).error === SANDBOX_BUSY_MESSAGE);
    const ran = answers.filter((a) => Array.isArray(JSON.parse(a)));
    expect(maxLive).toBeGreaterThan(0);
    expect(maxLive).toBeLessThanOrEqual(2);
    expect(busyAnswers.length).toBeGreaterThan(0);
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.length + busyAnswers.length).toBe(6);
    // The queue does not stay blocked: once the flood is over, a call runs again.
    expect(JSON.parse(await sandbox.run(busy('owner-0', 10), {}))).toHaveLength(2);
  }, 60_000);

  it("runs one owner's calls at most its cap at a time, while another owner's call still runs", async () => {
    sandbox = new Sandbox({ wallClockMs: 8000, memoryMb: 192, startMs: 60_000, maxProcesses: 3, maxPerOwner: 1, queueWaitMs: 30_000 });
    sandbox.warm();
    const watch = watchChildren();
    const mine = Promise.all(Array.from({ length: 3 }, () => sandbox!.run(busy('flooder', 300), {})));
    const other = sandbox.run(busy('someone-else', 300), {});
    const spans = (await mine).map((a) => JSON.parse(a) as [number, number]).sort((a, b) => a[0] - b[0]);
    const [otherStart, otherEnd] = JSON.parse(await other) as [number, number];
    expect(watch.stop()).toBeLessThanOrEqual(3);
    // The flooder's calls never overlapped: each began after the one before it ended.
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
    // The other owner's call ran beside the flooder's first one, not after all three.
    expect(otherStart).toBeLessThan(spans[2]![0]);
    expect(otherEnd).toBeGreaterThan(otherStart);
  }, 60_000);
});
