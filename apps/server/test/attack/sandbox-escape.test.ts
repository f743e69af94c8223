// Sandbox escape: approved function code that tries to reach the host. Each exploit is real
// Python run by the real Sandbox (child process, Pyodide): it looks for a path to the host file
// system (Emscripten's NODEFS, FS.mount, Pyodide's mountNodeFS and loadBinaryFile) and, when it
// finds one, reads a canary file and the server process's environment from /proc. None may come
// back. The canary file is world-readable on purpose: only the sandbox's own layers (the bridges
// removed in the child, Node's permission model, the unprivileged user) may stop it.
// See docs/decisions/601-function-sandbox.md.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionTool } from '../../src/runtime/types';
import { Sandbox } from '../../src/runtime/sandbox/sandbox';

const SECRET = `canary-${randomBytes(12).toString('hex')}`;
let dir: string;
let canaryFile: string;
let sandbox: Sandbox;
/** This process's environment as the kernel shows it (/proc/<pid>/environ): the sandbox's parent. */
let parentEnv: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'parla-escape-'));
  chmodSync(dir, 0o755);
  canaryFile = join(dir, 'secret.key');
  writeFileSync(canaryFile, SECRET, { mode: 0o644 });
  parentEnv = readFileSync(`/proc/${process.pid}/environ`, 'utf8')
    .split('\0')
    .filter((e) => e.length > 12);
  process.env.PARLA_SANDBOX_CANARY = SECRET;
  sandbox = new Sandbox({ wallClockMs: 8000, memoryMb: 192, startMs: 60_000 });
  sandbox.warm();
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
  delete process.env.PARLA_SANDBOX_CANARY;
});

const tool = (name: string, code: string): FunctionTool => ({ id: name, name, description: '', parameters: {}, code, approved: true });

/** Python: given an Emscripten FS object and a dict converter, mounts the host's / and reads the targets. */
const MOUNT_AND_READ = `
def _mount_and_read(FS, to_js, paths):
    try:
        FS.mkdir('/host')
    except Exception:
        pass
    FS.mount(FS.filesystems.NODEFS, to_js({'root': '/'}, dict_converter=FS.constructor.fromEntries), '/host')
    found = []
    for p in paths:
        try:
            found.append(open('/host' + p, 'rb').read().decode('latin-1'))
        except Exception as e:
            found.append('refused: ' + type(e).__name__ + ' ' + str(e)[:80])
    return found
`;

const attempt = (body: string) =>
  `import sys\n${MOUNT_AND_READ}\ndef escape(paths, **_):\n    try:\n${body
    .trim()
    .split('\n')
    .map((l) => `        ${l}`)
    .join('\n')}\n    except BaseException as e:\n        return 'refused: ' + type(e).__name__ + ' ' + str(e)[:200]\n`;

const ORIGINAL = `
sys.modules.pop('pyodide_js', None)
import pyodide_js
import pyodide
FS = pyodide_js.FS
return _mount_and_read(FS, pyodide.ffi.to_js, paths)
`;

const EXPLOITS: Record<string, string> = {
  // The issue's exploit, word for word.
  'the reported exploit: pyodide_js taken back from sys.modules, NODEFS mounted on /host': ORIGINAL,
  // import js after deleting it: the import hook hands modules back, and its table holds pyodide_js too.
  "import js after deleting it from sys.modules, then pyodide_js from the import hook's own table": `
sys.modules.pop('js', None)
import js
hook = [f for f in sys.meta_path if hasattr(f, 'jsproxies')][0]
api = hook.jsproxies['pyodide_js']
from _pyodide_core import to_js
return [str(type(js))] + _mount_and_read(api.FS, to_js, paths)
`,
  '__import__ of pyodide_js and its mountNodeFS': `
sys.modules.pop('pyodide_js', None)
p = __import__('pyodide_js')
p.mountNodeFS('/host', '/')
return [open('/host' + x, 'rb').read().decode('latin-1') for x in paths]
`,
  'importlib of pyodide_js and its Emscripten module (_module.FS)': `
import importlib
sys.modules.pop('pyodide_js', None)
M = importlib.import_module('pyodide_js')._module
return _mount_and_read(M.FS, importlib.import_module('pyodide').ffi.to_js, paths)
`,
  'an attribute walk from any JsProxy a module holds to the Emscripten FS': `
found = []
for m in list(sys.modules.values()):
    if m is None:
        continue
    starts = [m] + [getattr(m, k, None) for k in dir(m)]
    for o in starts:
        if 'JsProxy' not in type(o).__name__ or isinstance(o, type):
            continue
        for walk in (('FS',), ('_module', 'FS'), ('public_api', 'FS'), ('public_api', '_module', 'FS')):
            try:
                x = o
                for a in walk:
                    x = getattr(x, a)
                found.append(x)
            except Exception:
                pass
if not found:
    return 'refused: no JsProxy leads to FS'
from _pyodide_core import to_js
return _mount_and_read(found[0], to_js, paths)
`,
  'exec of the reported exploit hex-encoded': `
src = bytes.fromhex('${Buffer.from(`import sys\nimport pyodide\nsys.modules.pop('pyodide_js', None)\nimport pyodide_js\n_out = _mount_and_read(pyodide_js.FS, pyodide.ffi.to_js, paths)\n`).toString('hex')}').decode()
ns = {'_mount_and_read': _mount_and_read, 'paths': paths}
exec(src, ns)
return ns['_out']
`,
};

describe('function sandbox escape', () => {
  for (const [name, body] of Object.entries(EXPLOITS)) {
    it(`finds no host file and no server environment variable through ${name}`, async () => {
      const out = await sandbox.run(tool('escape', attempt(body)), {
        paths: [canaryFile, `/proc/${process.pid}/environ`, '/etc/hostname'],
      });
      expect(out.includes(SECRET), `the canary file was read: ${out.slice(0, 200)}`).toBe(false);
      for (const entry of parentEnv) expect(out.includes(entry), `the server environment leaked: ${entry.split('=')[0]}`).toBe(false);
      expect(out, out.slice(0, 300)).toContain('refused');
    }, 90_000);
  }
});
