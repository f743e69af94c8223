// The model-check child process: reads one uploaded .glb / .vrm (the stored file's path comes
// over IPC), answers its rig or what is wrong with it, and exits. It runs with a V8 heap limit,
// an empty environment and a parent that kills it past a time and a memory limit
// (own-model.check.ts), so a hostile model can only end this process.
import { readFile } from 'node:fs/promises';
import type { OwnModelRig } from '@parla/shared/own-model';
import { inspectModel, ModelProblem } from './own-model.inspect';

export interface ModelCheckJob {
  path: string;
  /** The file's size as staged: read no more than that. */
  maxBytes: number;
}

export type ModelCheckReply = { ok: true; rig: OwnModelRig } | { ok: false; problem: string };

async function run(job: ModelCheckJob): Promise<ModelCheckReply> {
  try {
    const data = await readFile(job.path);
    if (data.length > job.maxBytes) return { ok: false, problem: 'The model changed while it was read.' };
    return { ok: true, rig: inspectModel(data) };
  } catch (err) {
    return { ok: false, problem: err instanceof ModelProblem ? err.message : 'The model could not be read.' };
  }
}

process.on('message', (job: ModelCheckJob) => {
  void run(job).then((reply) => process.send?.(reply, () => process.exit(0)));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
