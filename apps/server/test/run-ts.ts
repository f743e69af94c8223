// A child process that runs one of the server's TypeScript entries as `npm run serve` and
// `npm run node` do: `spawn(process.execPath, [RUN_TS, entry, ...args])` (scripts/run-ts.mjs).
import { resolve } from 'node:path';

export const RUN_TS = resolve(import.meta.dirname, '../../../scripts/run-ts.mjs');
