// Files every process and one backup see (issue 34 item 4, decision 015), with real server
// processes (src/main.ts) on both databases. Before, the uploads lived in each process's
// DATA_DIR: a new checkout on the same PostgreSQL answered 404 for every background and knowledge
// file. Now the bytes are in the database:
//   - a process on a fresh DATA_DIR (PostgreSQL: beside the first one; PGlite: the database
//     directory alone copied into a new DATA_DIR) serves every file the first one stored, a
//     range of the video across a chunk's edge included;
//   - the files an older release kept in DATA_DIR/files move into the database at start, once,
//     and a row whose bytes are nowhere is reported loudly at each start and kept.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../src/lib/file-store';
import { fileOf, multipart } from '../avatar-requests';
import { multipart as kbMultipart } from '../knowledge-requests';
import { PROCESS_CUSTOMER, serverHome, type ServerHome, type ServerProcess } from '../server-process';

const homes: ServerHome[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const h of homes) await h.remove();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

async function stop(p: ServerProcess): Promise<void> {
  p.proc.kill('SIGTERM');
  await p.exited;
}

async function kbAuth(home: ServerHome, url: string): Promise<Record<string, string>> {
  const session = await home.login(url);
  const jwt = ((await (await fetch(`${url}/api/token/jwt`, { headers: session })).json()) as { jwtToken: string }).jwtToken;
  return { authorization: `Bearer ${jwt}` };
}

async function bytesOf(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

describe('stored files live in the database', () => {
  it('a server on a fresh DATA_DIR over the same database serves every background and knowledge file another process stored', async () => {
    const home = await serverHome();
    homes.push(home);
    const first = await home.start();
    const session = await home.login(first.url);
    const catalogue = (await (await fetch(`${first.url}/api/catalogue/avatars`)).json()) as { avatars: { id: string; type: string }[] };
    const look = catalogue.avatars.find((a) => a.type === '2d')!;
    const video = Buffer.concat([fileOf('mp4', 16), randomBytes(2 * CHUNK_BYTES + 4321)]);
    const body = multipart([
      { name: 'json', value: JSON.stringify({ name: 'Shared', dhType: look.type, appearanceId: look.id }) },
      { name: 'backgroundImage', value: video, filename: 'bg.mp4' },
    ]);
    const saved = await fetch(`${first.url}/api/avatar_v2/add`, {
      method: 'POST',
      headers: { ...session, ...body.headers },
      body: new Uint8Array(body.payload),
    });
    expect(saved.status).toBe(200);
    const media = ((await saved.json()) as { agent: { mediaDetails: { backgroundImage: { url: string }[] } } }).agent.mediaDetails;
    const videoUrl = media.backgroundImage[0]!.url;
    const videoPath = videoUrl.slice(videoUrl.indexOf('/config-files/'));
    const notes = Buffer.from('# Opening hours\n\nWe open at nine.\n'.repeat(500));
    const kb = kbMultipart('file', 'hours.md', notes, 'text/markdown');
    const up = await fetch(`${first.url}/kb/v1/files`, {
      method: 'POST',
      headers: { ...(await kbAuth(home, first.url)), ...kb.headers },
      body: new Uint8Array(kb.payload),
    });
    expect(up.status).toBe(200);
    const notesPath = ((await up.json()) as { url: string }).url;

    const fresh = mkdtempSync(join(tmpdir(), 'parla-fresh-'));
    dirs.push(fresh);
    if (!onPostgres) {
      // One PGlite process at a time: the database directory alone goes to the new DATA_DIR.
      await stop(first);
      cpSync(join(home.dataDir, 'pg'), join(fresh, 'pg'), { recursive: true });
    }
    const second = await home.start({ DATA_DIR: fresh });
    expect(existsSync(join(fresh, 'files', look.id))).toBe(false);

    const whole = await fetch(`${second.url}${videoPath}`);
    expect(whole.status).toBe(200);
    expect(sha(await bytesOf(whole))).toBe(sha(video));
    const from = CHUNK_BYTES - 50;
    const part = await fetch(`${second.url}${videoPath}`, { headers: { range: `bytes=${from}-${from + 99}` } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes ${from}-${from + 99}/${video.length}`);
    expect((await bytesOf(part)).equals(video.subarray(from, from + 100))).toBe(true);
    const tail = await fetch(`${second.url}${videoPath}`, { headers: { range: 'bytes=-10' } });
    expect((await bytesOf(tail)).equals(video.subarray(video.length - 10))).toBe(true);
    const doc = await fetch(`${second.url}${notesPath}`, { headers: await kbAuth(home, second.url) });
    expect(doc.status).toBe(200);
    expect(sha(await bytesOf(doc))).toBe(sha(notes));
    expect(second.output()).not.toMatch(/no bytes in the database/);
    await stop(second);
    if (onPostgres) await stop(first);
  }, 240_000);

  it('moves the files an older release kept in DATA_DIR into the database at start, once, and warns loudly about rows without bytes, keeping them', async () => {
    const home = await serverHome();
    homes.push(home);
    const dataDir = home.dataDir;
    // The layout of the release before decision 015: rows without chunks, bytes in DATA_DIR/files.
    const db = await home.open();
    const owner = (await db.db.selectFrom('users').select('id').where('email', '=', PROCESS_CUSTOMER.email).executeTakeFirstOrThrow()).id;
    const old = [
      Buffer.from('small notes of an older release\n'),
      Buffer.from('larger notes\n'.repeat(Math.ceil((CHUNK_BYTES + 5000) / 13))),
    ];
    const ids: string[] = [];
    for (const data of old) {
      const id = randomUUID();
      ids.push(id);
      mkdirSync(join(dataDir, 'files', owner), { recursive: true });
      writeFileSync(join(dataDir, 'files', owner, `${id}.md`), data);
      await db.db
        .insertInto('stored_files')
        .values({
          id,
          owner_id: owner,
          kind: 'knowledge',
          rel_path: `${owner}/${id}.md`,
          original_name: 'old.md',
          content_type: 'text/markdown',
          size_bytes: data.length,
          sha256: sha(data),
          chunk_count: null,
        })
        .execute();
    }
    // Two rows whose bytes are nowhere: a file another machine kept, and a damaged row.
    const absent = randomUUID();
    await db.db
      .insertInto('stored_files')
      .values({
        id: absent,
        owner_id: owner,
        kind: 'knowledge',
        rel_path: `${owner}/${absent}.md`,
        original_name: 'gone.md',
        content_type: 'text/markdown',
        size_bytes: 10,
        sha256: sha(Buffer.alloc(10)),
        chunk_count: null,
      })
      .execute();
    const damaged = randomUUID();
    await db.db
      .insertInto('stored_files')
      .values({
        id: damaged,
        owner_id: owner,
        kind: 'knowledge',
        rel_path: null,
        original_name: 'cut.md',
        content_type: 'text/markdown',
        size_bytes: CHUNK_BYTES + 1,
        sha256: 'x',
        chunk_count: 2,
      })
      .execute();
    await db.db
      .insertInto('file_chunks')
      .values({ file_id: damaged, idx: 0, data: Buffer.alloc(CHUNK_BYTES) })
      .execute();
    await db.close();

    const first = await home.start({ LOG_LEVEL: 'info' });
    await waitFor(() => /have no bytes in the database/.test(first.output()));
    expect(first.output()).toMatch(/moved 2 stored files/);
    expect(first.output()).toMatch(/2 of 4 stored files have no bytes in the database/);
    // The disk copies went once their move committed.
    for (const id of ids) expect(existsSync(join(dataDir, 'files', owner, `${id}.md`))).toBe(false);
    const auth = await kbAuth(home, first.url);
    for (const [i, id] of ids.entries()) {
      const res = await fetch(`${first.url}/kb/v1/files/${id}`, { headers: auth });
      expect(res.status).toBe(200);
      expect((await bytesOf(res)).equals(old[i]!)).toBe(true);
    }
    expect((await fetch(`${first.url}/kb/v1/files/${absent}`, { headers: auth })).status).toBe(404);
    await stop(first);

    // Again: nothing left to move, the same warning, and no row was deleted.
    const again = await home.start({ LOG_LEVEL: 'info' });
    await waitFor(() => /have no bytes in the database/.test(again.output()));
    expect(again.output()).not.toMatch(/moved \d+ stored files/);
    expect(again.output()).toMatch(/2 of 4 stored files have no bytes in the database/);
    await stop(again);
    const after = await home.open();
    const kept = await after.db
      .selectFrom('stored_files')
      .select(['id', 'chunk_count'])
      .where('owner_id', '=', owner)
      .orderBy('id')
      .execute();
    await after.close();
    expect(kept.map((r) => r.id).sort()).toEqual([...ids, absent, damaged].sort());
    expect(kept.filter((r) => ids.includes(r.id)).every((r) => r.chunk_count !== null)).toBe(true);
  }, 240_000);
});

async function waitFor(done: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
