// The function sandbox's child process (plain JavaScript: it runs without the TypeScript loader).
// Started with --disallow-code-generation-from-strings and an empty environment. Python runs in
// Pyodide (WebAssembly) with: no JavaScript globals visible to Python, no code generation (so no
// JsProxy can reach Function), emscripten sockets refused, fetch/WebSocket removed, and linear
// memory capped by refusing WebAssembly.Memory growth past the limit (Python sees MemoryError).
// The parent kills the process at its wall-clock limit. One job per process.
const MEMORY_LIMIT = Number(process.argv[2] ?? 256) * 1024 * 1024;
const send = process.send.bind(process);

const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (pages) {
  if (this.buffer.byteLength + pages * 65536 > MEMORY_LIMIT) throw new RangeError('memory limit');
  return grow.call(this, pages);
};

let output = '';
const capture = (s) => {
  if (output.length < 4000) output += `${s}\n`;
};

const { loadPyodide } = await import('pyodide');
const py = await loadPyodide({ jsglobals: Object.create(null), stdout: capture, stderr: capture });

const M = py._module;
for (const k of Object.keys(M.SOCKFS?.websocket_sock_ops ?? {})) {
  if (k !== 'poll') M.SOCKFS.websocket_sock_ops[k] = () => { throw new M.FS.ErrnoError(63); };
}
M.WS = undefined;
for (const k of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource', 'Request', 'Response']) {
  try { delete globalThis[k]; } catch { /* not configurable */ }
}
for (const k of ['binding', '_linkedBinding', 'getBuiltinModule', 'dlopen', 'env']) {
  try { process[k] = k === 'env' ? {} : undefined; } catch { /* read-only */ }
}

const RUN = `
import json, sys
for _name in ('js', 'pyodide_js', 'pyodide.ffi', 'pyodide.http', 'pyodide.code', 'micropip'):
    sys.modules[_name] = None
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
