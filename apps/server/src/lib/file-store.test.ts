import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../test/accounts';
import { createTestServer, type TestServer } from '../../test/harness';
import { CHUNK_BYTES } from './file-store';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

async function* bytes(n: number, chunk = 64 * 1024) {
  for (let left = n; left > 0; left -= chunk) yield Buffer.alloc(Math.min(chunk, left), 7);
}

const pattern = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));

async function* counting(n: number) {
  const all = pattern(n);
  for (let i = 0; i < n; i += 1000) yield all.subarray(i, i + 1000);
}

const readAll = async (id: string, start: number, end: number) => {
  const parts: Buffer[] = [];
  for await (const p of server.ctx.files.read(server.ctx.db, id, start, end)) parts.push(p);
  return Buffer.concat(parts);
};

describe('file store', () => {
  it('accepts a file of exactly the limit and refuses one byte more, keeping nothing', async () => {
    const { id: owner } = await createCustomer(server);
    const store = server.ctx.files;
    const ok = await store.stage(owner, bytes(1000), { maxBytes: 1000, ext: 'bin', tooLargeMessage: 'too big' });
    expect(ok.size).toBe(1000);
    expect(existsSync(ok.absPath)).toBe(true);
    await store.discard(ok);
    await expect(store.stage(owner, bytes(1001), { maxBytes: 1000, ext: 'bin', tooLargeMessage: 'too big' })).rejects.toMatchObject({
      httpStatus: 413,
      errors: ['too big'],
    });
    expect(readdirSync(store.tmp)).toEqual([]);
  });

  it('keeps the bytes in the database in chunks, written with the row, and reads any range of them back', async () => {
    const { id: owner } = await createCustomer(server);
    const store = server.ctx.files;
    const size = 2 * CHUNK_BYTES + 12_345;
    const expected = pattern(size);
    const file = await store.stage(owner, counting(size), { maxBytes: size, ext: 'bin', tooLargeMessage: 'x' });
    await server.ctx.db.transaction().execute((trx) => store.record(trx, file, { kind: 'test', contentType: 'application/octet-stream' }));
    await store.discard(file);
    const chunks = await server.ctx.db.selectFrom('file_chunks').select('idx').where('file_id', '=', file.id).orderBy('idx').execute();
    expect(chunks.map((c) => c.idx)).toEqual([0, 1, 2]);
    expect((await readAll(file.id, 0, size - 1)).equals(expected)).toBe(true);
    // Across a chunk's edge, inside one chunk, the last byte.
    const edge = CHUNK_BYTES - 5;
    expect((await readAll(file.id, edge, edge + 9)).equals(expected.subarray(edge, edge + 10))).toBe(true);
    expect((await readAll(file.id, 10, 19)).equals(expected.subarray(10, 20))).toBe(true);
    expect((await readAll(file.id, size - 1, size - 1)).equals(expected.subarray(size - 1))).toBe(true);
  });

  it('stores nothing when the transaction of the row fails', async () => {
    const { id: owner } = await createCustomer(server);
    const store = server.ctx.files;
    const file = await store.stage(owner, bytes(CHUNK_BYTES + 1), { maxBytes: CHUNK_BYTES + 1, ext: 'bin', tooLargeMessage: 'x' });
    await expect(
      server.ctx.db.transaction().execute(async (trx) => {
        await store.record(trx, file, { kind: 'test', contentType: 'application/octet-stream' });
        throw new Error('the save failed after the file was recorded');
      }),
    ).rejects.toThrow(/save failed/);
    await store.discard(file);
    expect(await store.find(server.ctx.db, owner, file.id)).toBeUndefined();
    expect(await server.ctx.db.selectFrom('file_chunks').select('idx').where('file_id', '=', file.id).execute()).toEqual([]);
    expect(existsSync(file.absPath)).toBe(false);
  });

  it('counts the rows whose bytes are missing from the database, and deletes no row', async () => {
    const { id: owner } = await createCustomer(server);
    const store = server.ctx.files;
    const before = await store.missing(server.ctx.db);
    const gone = await store.stage(owner, bytes(10), { maxBytes: 100, ext: 'png', tooLargeMessage: 'x' });
    await server.ctx.db.transaction().execute((trx) => store.record(trx, gone, { kind: 'test', contentType: 'image/png' }));
    await store.discard(gone);
    await server.ctx.db.deleteFrom('file_chunks').where('file_id', '=', gone.id).execute();
    const after = await store.missing(server.ctx.db);
    expect(after.missing).toBe(before.missing + 1);
    expect(after.checked).toBe(before.checked + 1);
    expect(await store.find(server.ctx.db, owner, gone.id)).toBeDefined();
  });

  it('sweeps old temp files and keeps fresh ones', async () => {
    const { id: owner } = await createCustomer(server);
    const store = server.ctx.files;
    const fresh = await store.stage(owner, bytes(10), { maxBytes: 100, ext: 'png', tooLargeMessage: 'x' });
    expect((await store.sweep()).removed).toEqual([]);
    const { removed } = await store.sweep(Date.now() + 11 * 60 * 1000);
    expect(removed).toContain(`tmp/${fresh.id}.png`);
    expect(existsSync(fresh.absPath)).toBe(false);
  });

  it('generates stored names itself', async () => {
    const { id: owner } = await createCustomer(server);
    await expect(server.ctx.files.stage(owner, bytes(1), { maxBytes: 10, ext: '../x', tooLargeMessage: 'x' })).rejects.toThrow();
    await expect(server.ctx.files.stage('../etc', bytes(1), { maxBytes: 10, ext: 'png', tooLargeMessage: 'x' })).rejects.toThrow();
  });
});
