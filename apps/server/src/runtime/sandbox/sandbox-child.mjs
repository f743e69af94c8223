// The function sandbox's child process (plain JavaScript: it runs without the TypeScript loader).
// The parent (confinement.ts) starts it under Node's permission model (read access to its own
// staged directory only, no write, no child processes, no workers), with code generation from
// strings disallowed, an empty environment, an empty working directory and, when the server is
// root, as `nobody`. Inside, before any customer code runs, every bridge from Python to the host
// is removed from the objects themselves (hiding names from Python is not enough: code can undo
// that): Emscripten's NODEFS and the other host file systems, FS.mount, Pyodide's mountNodeFS,
// loadBinaryFile, loadPackage and dynamic libraries, emscripten and Node sockets, fetch and
// WebSocket, and the import hook that hands out `js` and `pyodide_js`. Linear memory is capped by
// refusing WebAssembly.Memory growth past the limit (Python sees MemoryError). The parent kills
// the process at its wall-clock limit. One job per process. See docs/decisions/601-function-sandbox.md.
import { constants as fsConstants, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const MEMORY_LIMIT = Number(process.argv[2] ?? 256) * 1024 * 1024;
const PYODIDE = process.argv[3];
/** The Python start-up snapshot made by sandbox-snapshot.mjs ('' when none: a full start). */
const SNAPSHOT = process.argv[4];
const send = process.send.bind(process);
/** Loading options shared with sandbox-snapshot.mjs (the snapshot holds Python's start-up state). */
const NEUTRAL_PROGRAM = { _sysExecutable: '/function', env: { _: undefined } };

const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (pages) {
  if (this.buffer.byteLength + pages * 65536 > MEMORY_LIMIT) throw new RangeError('memory limit');
  return grow.call(this, pages);
};

let output = '';
const capture = (s) => {
  if (output.length < 4000) output += `${s}\n`;
};

// The permission model refuses process.binding; Emscripten's NODEFS reads only its fs constants
// from it at start (NODEFS is disarmed below in any case).
process.binding = (name) => {
  if (name === 'constants') return { fs: fsConstants };
  throw new Error('Not available to functions.');
};
const { loadPyodide } = await import(pathToFileURL(PYODIDE).href);
const py = await loadPyodide({
  jsglobals: Object.create(null),
  // Emscripten names the program after process.argv[1] (this script's path) and hands it to
  // Python as sys.executable and os.environ['_']: neither may show where the server lives.
  ...NEUTRAL_PROGRAM,
  stdout: capture,
  stderr: capture,
  ...(SNAPSHOT ? { _loadSnapshot: readFileSync(SNAPSHOT) } : {}),
});

const M = py._module;
const FS = M.FS;
function denied() {
  throw new Error('Not available to functions.');
}
/** Replaces every function of a host file system (and of its node and stream operations). */
function disarm(fs, depth = 0) {
  if (!fs || typeof fs !== 'object' || depth > 2) return;
  for (const k of Object.keys(fs)) {
    if (typeof fs[k] === 'function') fs[k] = denied;
    else if (fs[k] && typeof fs[k] === 'object' && /ops$/.test(k)) disarm(fs[k], depth + 1);
  }
}
// Host file systems: NODEFS (the reported escape), IDBFS, WORKERFS, PROXYFS, NATIVEFS_ASYNC,
// NODESOCKFS, NODERAWFS, wherever they are referenced from.
for (const [name, fs] of Object.entries(FS.filesystems ?? {})) if (name !== 'MEMFS') disarm(fs);
for (const name of ['NODEFS', 'IDBFS', 'WORKERFS', 'PROXYFS', 'NODERAWFS', 'NATIVEFS_ASYNC', 'NODESOCKFS']) disarm(M[name]);
FS.filesystems = { MEMFS: FS.filesystems.MEMFS };
// Mounting: only the in-memory file systems Python itself needs (pipes, sockets' table).
const mount = FS.mount.bind(FS);
const internal = new Set([M.MEMFS, M.PIPEFS, M.SOCKFS].filter(Boolean));
FS.mount = (type, opts, mountpoint) => (internal.has(type) ? mount(type, opts, mountpoint) : denied());
for (const k of ['unmount', 'syncfs', 'createLazyFile', 'createPreloadedFile']) FS[k] = denied;
// Pyodide's own ways to the host: mounting, reading files, loading packages and libraries, sockets.
for (const k of [
  'mountNodeFS',
  'mountNativeFS',
  'loadPackage',
  'loadPackagesFromImports',
  'registerJsModule',
  'registerComlink',
  'setInterruptBuffer',
]) {
  try {
    py[k] = denied;
  } catch {
    /* read-only */
  }
}
for (const k of ['loadBinaryFile', 'loadDynlib', 'initializeNodeSockFS', 'install', 'packageManager', 'restoreSnapshot']) {
  try {
    py._api[k] = denied;
  } catch {
    /* read-only */
  }
}
for (const k of ['loadDynamicLibrary', 'loadWebAssemblyModule', 'asyncLoad', 'loadDylibs']) M[k] = denied;
for (const k of Object.keys(M.SOCKFS?.websocket_sock_ops ?? {})) {
  if (k !== 'poll')
    M.SOCKFS.websocket_sock_ops[k] = () => {
      throw new FS.ErrnoError(63);
    };
}
M.WS = undefined;
for (const k of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource', 'Request', 'Response']) {
  try {
    delete globalThis[k];
  } catch {
    /* not configurable */
  }
}
for (const k of ['binding', '_linkedBinding', 'getBuiltinModule', 'dlopen', 'env', 'kill', 'chdir']) {
  try {
    process[k] = k === 'env' ? {} : undefined;
  } catch {
    /* read-only */
  }
}

// Python's side: the import hook that serves `js` and `pyodide_js` is emptied and removed, and
// the modules that expose JavaScript are gone (a function that re-imports them gets ImportError;
// one that finds a stray proxy finds the disarmed objects above).
await py.runPythonAsync(`
import sys, gc
for _f in list(sys.meta_path):
    if hasattr(_f, 'jsproxies'):
        _f.jsproxies.clear()
        sys.meta_path.remove(_f)
import pyodide
for _name in [k for k in sys.modules if k in ('js', 'micropip') or k.startswith('pyodide_js') or k in ('pyodide.ffi', 'pyodide.http', 'pyodide.code')]:
    sys.modules[_name] = None
for _name in ('ffi', 'http', 'code'):
    if hasattr(pyodide, _name):
        delattr(pyodide, _name)
for _name in ('js', 'pyodide_js', 'pyodide_js._api', 'pyodide.ffi', 'pyodide.http', 'pyodide.code', 'micropip'):
    sys.modules[_name] = None
del _f, _name
import os
os.environ.pop('_', None)
del os
gc.collect()
`);

// JavaScript's intrinsics, frozen before any customer code (decision 412). Python reaches them
// from any JsProxy (`to_js([]).constructor.constructor` is Function, an error's constructor leads
// to Error): it could install Error.prepareStackTrace (V8 then hands it call sites, that is
// functions and receivers of every frame) or change what Pyodide's own JavaScript relies on
// (Object.prototype, Array.prototype, Promise...). Constructors and namespaces are frozen as they
// are, except Error.stackTraceLimit, which stays a writable data property (V8 reads it only as
// data, and Pyodide's PythonError sets it around each construction). A prototype's data properties
// become getters and setters first, so assigning to an object that inherits one still defines the
// object's own property (JavaScript's "override mistake", which freezing alone turns into
// TypeErrors inside Pyodide); assigning to the prototype itself throws.
Object.defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, enumerable: false, configurable: false });
/** Object.freeze, except the properties named in `writable`, which stay writable (not configurable). */
function freezeExcept(obj, writable = []) {
  for (const key of Reflect.ownKeys(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, key);
    if (d.configurable || d.writable)
      Object.defineProperty(obj, key, 'value' in d ? { writable: writable.includes(key), configurable: false } : { configurable: false });
  }
  Object.preventExtensions(obj);
}
function freezePrototype(proto) {
  if (!proto || Object.isFrozen(proto)) return;
  for (const key of Reflect.ownKeys(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (!('value' in d) || !d.configurable) continue;
    const value = d.value;
    Object.defineProperty(proto, key, {
      get: () => value,
      set(v) {
        if (this === proto) throw new TypeError(`${String(key)} is read-only in functions.`);
        Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: d.enumerable,
      configurable: false,
    });
  }
  Object.freeze(proto);
}
const TypedArray = Object.getPrototypeOf(Uint8Array);
const generator = Object.getPrototypeOf(function* () {});
const asyncFn = Object.getPrototypeOf(async function () {});
for (const c of [
  Object,
  Function,
  Array,
  Error,
  EvalError,
  RangeError,
  ReferenceError,
  SyntaxError,
  TypeError,
  URIError,
  AggregateError,
  Promise,
  RegExp,
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Date,
  Map,
  Set,
  WeakMap,
  WeakSet,
  WeakRef,
  FinalizationRegistry,
  ArrayBuffer,
  SharedArrayBuffer,
  DataView,
  TypedArray,
  Proxy,
  generator.constructor,
  asyncFn.constructor,
  WebAssembly.Memory,
  WebAssembly.Module,
  WebAssembly.Instance,
  WebAssembly.Table,
  WebAssembly.Global,
]) {
  freezeExcept(c, c === Error ? ['stackTraceLimit'] : []);
  freezePrototype(c.prototype);
}
const arrayIterator = Object.getPrototypeOf([][Symbol.iterator]());
for (const proto of [generator, asyncFn, arrayIterator, Object.getPrototypeOf(arrayIterator)]) freezePrototype(proto);
for (const ns of [Reflect, JSON, Math, Atomics, WebAssembly]) Object.freeze(ns);

const RUN = `
import json
_job = json.loads(__job_text)
_ns = {'__name__': 'function'}
exec(compile(_job['code'], 'function.py', 'exec'), _ns)
_fn = _ns.get(_job['name'])
if not callable(_fn):
    raise NameError('The function ' + _job['name'] + ' is not defined in this code.')
_args = _job['args'] if isinstance(_job['args'], dict) else {}
_result = _fn(**_args)
json.dumps(_result, default=str)
`;

const DESCRIBE = `
import ast, json
_job = json.loads(__job_text)
_tree = ast.parse(_job['code'])
_types = {'str': 'string', 'int': 'integer', 'float': 'number', 'bool': 'boolean', 'list': 'array', 'dict': 'object'}
def _describe(fn):
    doc = ast.get_docstring(fn) or ''
    summary = doc.split('\\n\\n')[0].strip()
    arg_docs = {}
    in_args = False
    for line in doc.splitlines():
        s = line.strip()
        if s.lower() in ('args:', 'arguments:', 'parameters:'):
            in_args = True
            continue
        if in_args:
            if not s or s.endswith(':') and ' ' not in s:
                in_args = bool(s) and False
                if not s: continue
            if ':' in s:
                k, v = s.split(':', 1)
                arg_docs[k.split('(')[0].strip()] = v.strip()
    props = {}
    required = []
    defaults = len(fn.args.defaults)
    params = fn.args.args
    for i, a in enumerate(params):
        t = a.annotation.id if isinstance(a.annotation, ast.Name) else 'str'
        props[a.arg] = {'type': _types.get(t, 'string')}
        if a.arg in arg_docs: props[a.arg]['description'] = arg_docs[a.arg]
        if i < len(params) - defaults: required.append(a.arg)
    return {'name': fn.name, 'description': summary, 'parameters': {'type': 'object', 'properties': props, 'required': required}}
_fns = [n for n in _tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith('_')]
json.dumps([_describe(f) for f in _fns])
`;

process.on('message', async (job) => {
  try {
    py.globals.set('__job_text', JSON.stringify(job));
    const result = await py.runPythonAsync(job.kind === 'describe' ? DESCRIBE : RUN);
    send({ ok: true, result: String(result), output });
  } catch (err) {
    const text = String(err?.message ?? err);
    const last = text.trim().split('\n').filter(Boolean).slice(-1)[0] ?? 'error';
    send({ ok: false, error: last.slice(0, 500), output });
  }
});
send({ ready: true });
