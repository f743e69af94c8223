// Checks an uploaded 3D avatar in a fresh child process (own-model.check-child.ts), bundled once
// per server process like the document readers (decision 405), with a V8 heap limit, a
// resident-memory watchdog and a wall-clock limit: a model that needs more is killed with its
// process and refused with a message, while the server's heap and event loop stay free.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OwnModelRig } from '@parla/shared/own-model';
import { childScript } from '../../lib/child-script';
import type { ModelCheckJob, ModelCheckReply } from './own-model.check-child';

export interface ModelCheckLimits {
  timeMs: number;
  heapMb: number;
  rssMb: number;
}

/** Reading a 25 MB model's JSON and image headers takes well under a second; these are backstops. */
export const MODEL_CHECK_LIMITS: ModelCheckLimits = { timeMs: 20_000, heapMb: 128, rssMb: 384 };

export const MODEL_CHECK_FAILED = {
  time: 'The model took too long to read and was refused.',
  memory: 'The model needs too much memory to read and was refused.',
  crashed: 'The model could not be read: its reader stopped unexpectedly.',
} as const;

const script = childScript(join(dirname(fileURLToPath(import.meta.url)), 'own-model.check-child.ts'), 'parla-model-check-');

function residentMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0; // no /proc (not Linux) or the process is gone: the heap limit still holds
  }
}

/** The model's rig, or `{ problem }` saying why it is refused. */
export async function checkModelInChild(
  job: ModelCheckJob,
  limits: ModelCheckLimits = MODEL_CHECK_LIMITS,
): Promise<{ rig: OwnModelRig } | { problem: string }> {
  let path: string;
  try {
    path = await script();
  } catch {
    return { problem: MODEL_CHECK_FAILED.crashed };
  }
  const child = fork(path, [], {
    execArgv: [`--max-old-space-size=${limits.heapMb}`],
    env: {},
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
  });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: { rig: OwnModelRig } | { problem: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      child.kill('SIGKILL');
      resolve(answer);
    };
    child.on('message', (m: ModelCheckReply | { ready: true }) => {
      if ('ready' in m) child.send(job);
      else finish(m.ok ? { rig: m.rig } : { problem: m.problem });
    });
    child.once('exit', (code, signal) =>
      finish({ problem: signal === 'SIGABRT' || code === 134 ? MODEL_CHECK_FAILED.memory : MODEL_CHECK_FAILED.crashed }),
    );
    child.once('error', () => finish({ problem: MODEL_CHECK_FAILED.crashed }));
    const timer = setTimeout(() => finish({ problem: MODEL_CHECK_FAILED.time }), limits.timeMs);
    const watch = setInterval(() => {
      if (child.pid && residentMb(child.pid) > limits.rssMb) finish({ problem: MODEL_CHECK_FAILED.memory });
    }, 50);
  });
}
