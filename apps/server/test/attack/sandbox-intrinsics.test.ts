// Defence in depth inside the sandbox (issue 33, item 7). An outside probe found no escape, but
// approved Python reached JavaScript's Function, Object and Error from any JsProxy and could
// install Error.prepareStackTrace (V8 then calls it with the call sites of every frame, handing
// out functions and receivers); and os.environ['_'] and sys.executable named the checkout's path.
// Real Python in the real Sandbox (child process, Pyodide, started from the snapshot) tries each.
// See docs/decisions/412-sandbox-caps-intrinsics-and-connection-caps.md and 601.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionTool } from '../../src/runtime/types';
import { Sandbox } from '../../src/runtime/sandbox/sandbox';

const CHECKOUT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
let sandbox: Sandbox;

beforeAll(() => {
  sandbox = new Sandbox({ wallClockMs: 8000, memoryMb: 192, startMs: 60_000 });
  sandbox.warm();
});

afterAll(async () => {
  await sandbox.close();
});

const tool = (name: string, code: string): FunctionTool => ({ id: name, name, description: '', parameters: {}, code, approved: true });

/** Reaches Function, Object and Error from JsProxies and tries to change or use each. */
const INTRINSICS = `
def reach():
    from _pyodide_core import to_js
    out = {}
    def attempt(k, f):
        try:
            out[k] = 'got: ' + repr(f())[:200]
        except BaseException as ex:
            out[k] = 'refused: ' + type(ex).__name__ + ' ' + str(ex)[:200]
    a = to_js([1, 2])
    Function = a.constructor.constructor
    Object = a.entries().constructor
    try:
        a.constructor.prototype.at.call(None)
    except Exception as e:
        Error = Object.getPrototypeOf(e.js_error.constructor)
    out['reached'] = [str(Function)[:17], str(Object)[:15], str(Error)[:14]]
    calls = []
    def hook(err, frames):
        calls.append([str(f.getFunction()) for f in frames])
        return 'hooked'
    attempt('prepareStackTrace', lambda: setattr(Error, 'prepareStackTrace', hook))
    attempt('defineProperty prepareStackTrace', lambda: Object.defineProperty(Error, 'prepareStackTrace', Object.fromEntries(to_js([['value', hook]]))))
    attempt('captureStackTrace', lambda: setattr(Error, 'captureStackTrace', hook))
    attempt('stack', lambda: Error.new('x').stack)
    attempt('code from a string', lambda: Function('return process.env')())
    attempt('Object.prototype pollution', lambda: setattr(Object.prototype, 'polluted', 1))
    attempt('Object.prototype toString', lambda: setattr(Object.prototype, 'toString', hook))
    attempt('Object.keys replaced', lambda: setattr(Object, 'keys', hook))
    attempt('Function.prototype.call replaced', lambda: setattr(Function.prototype, 'call', hook))
    attempt('Array.prototype.map replaced', lambda: setattr(a.constructor.prototype, 'map', hook))
    attempt('polluted read back', lambda: to_js([]).polluted)
    out['hook calls'] = len(calls)
    out['still works'] = list(to_js([1, 2, 3]).map(lambda x, *r: x * 2))
    return out
`;

describe('JavaScript intrinsics inside the sandbox', () => {
  it('Python reaches Function, Object and Error but can change none of them and cannot install Error.prepareStackTrace', async () => {
    const raw = await sandbox.run(tool('reach', INTRINSICS), {});
    const out = JSON.parse(raw) as Record<string, unknown>;
    expect(out.reached, raw).toEqual(['function Function', 'function Object', 'function Error']);
    for (const k of [
      'prepareStackTrace',
      'defineProperty prepareStackTrace',
      'captureStackTrace',
      'code from a string',
      'Object.prototype pollution',
      'Object.prototype toString',
      'Object.keys replaced',
      'Function.prototype.call replaced',
      'Array.prototype.map replaced',
    ])
      expect(out[k], `${k}: ${String(out[k])}`).toMatch(/^refused: /);
    expect(out['polluted read back']).not.toMatch(/got: 1/);
    expect(out.stack).not.toContain('hooked');
    expect(out['hook calls']).toBe(0);
    expect(out['still works']).toEqual([2, 4, 6]);
  }, 60_000);

  it("shows no '_' in os.environ and no path of the checkout anywhere in os.environ or sys", async () => {
    const code = `
import os, sys
def where():
    seen = {'environ': dict(os.environ)}
    for k in dir(sys):
        try:
            seen['sys.' + k] = repr(getattr(sys, k))[:2000]
        except Exception:
            pass
    return seen
`;
    const raw = await sandbox.run(tool('where', code), {});
    const seen = JSON.parse(raw) as { environ: Record<string, string> } & Record<string, string>;
    expect(seen.environ, raw.slice(0, 300)).toBeTypeOf('object');
    expect(Object.keys(seen.environ)).not.toContain('_');
    for (const [k, v] of Object.entries(seen)) expect(JSON.stringify(v), `${k} shows the checkout's path`).not.toContain(CHECKOUT);
  }, 60_000);
});
