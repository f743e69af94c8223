// lib/shutdown.test.ts runs this through scripts/run-ts.mjs: a process whose shutdown step never
// finishes ('hang'), or starves the event loop for good ('starve': promise callbacks only, as a
// database queue that never empties would), under SHUTDOWN_GRACE_MS.
import { handleShutdownSignals } from '../src/lib/shutdown';

const mode = process.argv[2];
const log = { info: () => undefined, warn: () => undefined };
handleShutdownSignals({
  name: 'fixture',
  graceMs: Number(process.env.SHUTDOWN_GRACE_MS),
  log,
  close: async (steps) => {
    if (mode === 'starve')
      await steps.run(
        'starving',
        async () => {
          for (;;) await null;
        },
        log,
      );
    await steps.run('stuck step', () => new Promise(() => undefined), log);
  },
});
setInterval(() => undefined, 60_000); // a server's listener keeps the process alive
process.stdout.write('ready\n');
