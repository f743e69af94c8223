import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type Canary } from '../../../test/canary';
import type { FunctionTool } from '../types';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pythonSnapshot, stageRuntime } from './confinement';
import { Sandbox, UnapprovedFunction } from './sandbox';

let sandbox: Sandbox;
let canary: Canary;

const tool = (code: string, name: string, approved = true): FunctionTool => ({
  id: name,
  name,
  description: '',
  parameters: {},
  code,
  approved,
});

beforeAll(async () => {
  canary = await startCanary();
  sandbox = new Sandbox({ wallClockMs: 4000, memoryMb: 192, startMs: 60_000 });
  sandbox.warm();
});

afterAll(async () => {
  await sandbox.close();
  await canary.close();
});

describe('function sandbox', () => {
  it('runs an approved function with JSON arguments and returns its JSON result', async () => {
    const out = await sandbox.run(tool('def add(a: int, b: int) -> dict:\n    return {"sum": a + b}\n', 'add'), { a: 2, b: 3 });
    expect(JSON.parse(out)).toEqual({ sum: 5 });
  }, 60_000);

  it('starts each process from one read-only Python snapshot in the staged directory, and no call sees what another left', async () => {
    const file = await pythonSnapshot();
    expect(file).not.toBeNull();
    expect(dirname(file!)).toBe(stageRuntime());
    expect(statSync(file!).mode & 0o777).toBe(0o444);
    expect(await pythonSnapshot()).toBe(file);
    const leave = tool('import builtins\ndef leave() -> str:\n    builtins.left_behind = "x"\n    return "set"\n', 'leave');
    const look = tool('import builtins\ndef look() -> str:\n    return str(hasattr(builtins, "left_behind"))\n', 'look');
    expect(JSON.parse(await sandbox.run(leave, {}))).toBe('set');
    expect(JSON.parse(await sandbox.run(look, {}))).toBe('False');
  }, 60_000);

  it('never runs unapproved code', async () => {
    const code = `import socket\ndef evil():\n    socket.create_connection(("127.0.0.1", ${canary.port}))\n    return 1\n`;
    await expect(sandbox.run(tool(code, 'evil', false), {})).rejects.toBeInstanceOf(UnapprovedFunction);
    expect(canary.connections()).toBe(0);
  });

  it('gives functions no network: sockets and JavaScript fetch both fail and nothing connects', async () => {
    const sock = `import socket\ndef f():\n    try:\n        s = socket.create_connection(("127.0.0.1", ${canary.port}), timeout=1)\n        s.send(b"x")\n        return "connected"\n    except Exception as e:\n        return "refused: " + type(e).__name__\n`;
    expect(JSON.parse(await sandbox.run(tool(sock, 'f'), {}))).toMatch(/^refused/);
    const js = `def g():\n    try:\n        import js\n        js.fetch("http://127.0.0.1:${canary.port}/")\n        return "fetched"\n    except Exception as e:\n        return "refused: " + type(e).__name__\n`;
    expect(JSON.parse(await sandbox.run(tool(js, 'g'), {}))).toMatch(/^refused/);
    const escape = `def h():\n    try:\n        from pyodide.ffi import to_js\n        return str(to_js({}).constructor.constructor("return process.env")())\n    except Exception as e:\n        return "refused: " + type(e).__name__\n`;
    expect(JSON.parse(await sandbox.run(tool(escape, 'h'), {}))).toMatch(/^refused/);
    await new Promise((r) => setTimeout(r, 200));
    expect(canary.connections()).toBe(0);
  }, 60_000);

  it('gives functions no secrets: the environment is empty', async () => {
    process.env.PARLA_TEST_SECRET = 'do-not-leak';
    const out = await sandbox.run(tool('import os\ndef env():\n    return dict(os.environ)\n', 'env'), {});
    expect(out).not.toContain('do-not-leak');
    expect(out).not.toContain('SECRET');
  }, 60_000);

  it('stops a function at its wall-clock limit', async () => {
    const out = await sandbox.run(tool('def spin():\n    while True:\n        pass\n', 'spin'), {});
    expect(JSON.parse(out).error).toMatch(/longer than 4 s/);
  }, 60_000);

  it('stops a function at its memory limit', async () => {
    const out = await sandbox.run(tool('def hog():\n    return len(bytearray(600 * 1024 * 1024))\n', 'hog'), {});
    expect(JSON.parse(out).error).toMatch(/MemoryError/);
  }, 60_000);

  it('describes a function from its signature and docstring without running it', async () => {
    const code = `print("side effect")\nraise SystemExit(1)\ndef book(name: str, guests: int = 2) -> dict:\n    """Book a table.\n\n    Args:\n        name: Who books.\n        guests: How many.\n    """\n    return {}\n`;
    const [d] = await sandbox.describe(code);
    expect(d).toEqual({
      name: 'book',
      description: 'Book a table.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', description: 'Who books.' }, guests: { type: 'integer', description: 'How many.' } },
        required: ['name'],
      },
    });
  }, 60_000);
});
