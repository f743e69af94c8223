// Makes the function sandbox's Python start-up snapshot (plain JavaScript, run once per server
// process by confinement.ts, before any function runs): Pyodide loaded as every child loads it,
// with no customer code and nothing disarmed yet, its memory written to the path given. A child
// that starts from it skips Python's own start (about 2.3 of Pyodide's 2.6 CPU-seconds here) and
// then disarms the bridges to the host itself, exactly as after a full start.
//   node sandbox-snapshot.mjs <staged pyodide.mjs> <snapshot file>
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [pyodidePath, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodidePath).href);
// The same neutral program name and environment as sandbox-child.mjs: Python's start-up state,
// sys.executable and os.environ included, is what the snapshot holds.
const py = await loadPyodide({ jsglobals: Object.create(null), _sysExecutable: '/function', env: { _: undefined }, _makeSnapshot: true });
writeFileSync(out, py.makeMemorySnapshot());
