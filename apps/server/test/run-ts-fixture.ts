// run-ts.test.ts runs this through scripts/run-ts.mjs, many at once: the migrations it imports
// are a chunk each, so each start writes dozens of files into the same folder.
import { migrate } from '../src/db/migrate';

const { value } = await import('./run-ts-fixture-lazy');
process.stdout.write(`${import.meta.url.endsWith('/run-ts-fixture.ts') ? 'own url' : 'bundle url'} ${value} ${typeof migrate}\n`);
