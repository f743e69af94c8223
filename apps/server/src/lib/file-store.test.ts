import { existsSync, readdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../test/accounts';
import { createTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

async function* bytes(n: number, chunk = 64 * 1024) {
  for (let left = n; left > 0; left -= chunk) yield Buffer.alloc(Math.min(chunk, left), 7);
}

describe('file store', () => {
  it('accepts a file of exactly the limit and refuses one byte more, keeping nothing', async () => {
    const { id: owner } = await createCustomer(server);
    const store = server.ctx.files;
    const ok = await store.stage(owner, bytes(1000), { maxBytes: 1000, ext: 'bin', tooLargeMessage: 'too big' });
    expect(ok.size).toBe(1000);
    expect(existsSync(ok.absPath)).toBe(true);
    await expect(store.stage(owner, bytes(1001), { maxBytes: 1000, ext: 'bin', tooLargeMessage: 'too big' })).rejects.toMatchObject({
      httpStatus: 413,
      errors: ['too big'],
    });
    expect(readdirSync(`${store.root}/tmp`)).toEqual([]);
    expect(readdirSync(`${store.root}/${owner}`)).toHaveLength(1);
  });

  it('counts the rows whose file is missing from this disk, and deletes no row', async () => {
    const { id: owner } = await createCustomer(server);
    const store = server.ctx.files;
    const before = await store.missing(server.ctx.db);
    const gone = await store.stage(owner, bytes(10), { maxBytes: 100, ext: 'png', tooLargeMessage: 'x' });
    await store.record(server.ctx.db, gone, { kind: 'test', contentType: 'image/png' });
    rmSync(gone.absPath);
    const after = await store.missing(server.ctx.db);
    expect(after.missing).toBe(before.missing + 1);
    expect(after.examples).toContain(gone.relPath);
    expect(await store.find(server.ctx.db, owner, gone.id)).toBeDefined();
  });

  it('sweeps staged files that never got a row, and keeps recorded ones', async () => {
    const { id: owner } = await createCustomer(server);
    const store = server.ctx.files;
    const kept = await store.stage(owner, bytes(10), { maxBytes: 100, ext: 'png', tooLargeMessage: 'x' });
    await store.record(server.ctx.db, kept, { kind: 'test', contentType: 'image/png' });
    const orphan = await store.stage(owner, bytes(10), { maxBytes: 100, ext: 'png', tooLargeMessage: 'x' });
    expect((await store.sweep(server.ctx.db)).removed).toEqual([]);
    const later = Date.now() + 11 * 60 * 1000;
    const { removed } = await store.sweep(server.ctx.db, later);
    expect(removed).toContain(orphan.relPath);
    expect(existsSync(orphan.absPath)).toBe(false);
    expect(existsSync(kept.absPath)).toBe(true);
  });

  it('generates stored names itself', async () => {
    const { id: owner } = await createCustomer(server);
    await expect(server.ctx.files.stage(owner, bytes(1), { maxBytes: 10, ext: '../x', tooLargeMessage: 'x' })).rejects.toThrow();
    await expect(server.ctx.files.stage('../etc', bytes(1), { maxBytes: 10, ext: 'png', tooLargeMessage: 'x' })).rejects.toThrow();
  });
});
