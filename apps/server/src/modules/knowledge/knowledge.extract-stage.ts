// The extraction child as plain JavaScript: knowledge.extract-child.ts and the readers it uses,
// bundled once per server process (lib/child-script.ts), one chunk per reader (each document's
// process loads only its own). Run through tsx, its TypeScript loader cost more than the reading
// (10 HTML pages: 9.2 CPU-s through tsx, 1.0 bundled; decision 405's amendment).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childScript } from '../../lib/child-script';

const ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'knowledge.extract-child.ts');

/** The child's script, bundled on first use (again after a failure or a removed directory). */
export const extractChildScript = childScript(ENTRY, 'parla-extract-');
