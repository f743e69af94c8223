// A full disk (issue 34, decision 013): the real server process on a DATA_DIR that is a small
// tmpfs of its own. The disk is filled around it; uploads and database writes must fail at once
// with "not enough space" (507, Retry-After), while /api/health, sign-in reads and file downloads
// keep answering; when space returns, writes work again without a restart. Before the fix, the
// upload answered 500 "unexpected error", and once PGlite could not create a WAL segment the
// process stopped answering anything (the event loop spun in PGlite's WebAssembly) until kill -9.
// Needs root to mount the file system (CI runs as root); skipped otherwise. PGlite only: the file
// store's check is the same on PostgreSQL, whose own disk the server cannot see.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DISK_FULL_MESSAGE } from '@parla/shared/errors';
import { multipart } from '../knowledge-requests';
import { PROCESS_APP_KEY, PROCESS_CUSTOMER, serverHome, type ServerHome } from '../server-process';

const ROOT = process.getuid?.() === 0 && process.platform === 'linux';
const MB = 1024 * 1024;
const MIN_FREE_MB = 40;
const CRITICAL_MB = 24;

const mountPoint = mkdtempSync(join(tmpdir(), 'parla-disk-'));
const dataDir = join(mountPoint, 'data');
let mounted = false;
let home: ServerHome | null = null;

afterAll(async () => {
  await home?.remove();
  if (mounted) execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

const free = () => {
  const s = statfsSync(mountPoint);
  return s.bavail * s.bsize;
};

/** Leaves about `mb` MB free on the small file system (the filler file takes the rest). */
function leaveFree(mb: number): void {
  const filler = join(mountPoint, 'filler');
  rmSync(filler, { force: true });
  const size = free() - mb * MB;
  if (size > 0) writeFileSync(filler, Buffer.alloc(size, 1));
}

/** A request that must answer within `ms` (the bar of the issue: the server never stops answering). */
async function within(ms: number, url: string, init?: RequestInit): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
}

describe('a full disk', () => {
  it.skipIf(!ROOT || Boolean(process.env.TEST_DATABASE_URL))(
    'fails the writes that need space with a clear message, keeps reads working and recovers by itself (needs root to mount a small file system; PGlite only)',
    async () => {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mountPoint]);
      mounted = true;
      home = await serverHome({ dataDir });
      const { url } = await home.start({
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        DISK_MIN_FREE_MB: String(MIN_FREE_MB),
        DISK_CRITICAL_MB: String(CRITICAL_MB),
      });

      const login = () =>
        within(5000, `${url}/api/login`, {
          method: 'POST',
          headers: { authorization: `Bearer ${PROCESS_APP_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(PROCESS_CUSTOMER),
        });
      const signedIn = await login();
      expect(signedIn.status).toBe(200);
      const session = { authorization: `Bearer ${PROCESS_APP_KEY} ${((await signedIn.json()) as { sessionId: string }).sessionId}` };
      const jwt = ((await (await within(5000, `${url}/api/token/jwt`, { headers: session })).json()) as { jwtToken: string }).jwtToken;
      const kb = { authorization: `Bearer ${jwt}` };
      const upload = (n: number) => {
        const body = multipart('file', `notes-${n}.txt`, Buffer.from(`line ${n} of the notes\n`.repeat(20_000)), 'text/plain');
        return within(10_000, `${url}/kb/v1/files`, { method: 'POST', headers: { ...kb, ...body.headers }, body: body.payload });
      };
      const health = async () => {
        const res = await within(1000, `${url}/api/health`);
        expect(res.status).toBe(200);
        return ((await res.json()) as { disk: string }).disk;
      };

      const kept = await upload(0);
      expect(kept.status).toBe(200);
      const keptUrl = ((await kept.json()) as { url: string }).url;

      // Full: below DISK_CRITICAL_MB.
      leaveFree(CRITICAL_MB / 2);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await health()).toBe('full');
      const refused = await upload(1);
      expect(refused.status).toBe(507);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await refused.json()) as { errors: string[] }).errors).toEqual([DISK_FULL_MESSAGE]);
      // Writes of the database fail at once, many times over, and the server keeps answering.
      for (let i = 0; i < 30; i++) {
        expect((await login()).status).toBe(507);
        expect(await health()).toBe('full');
      }
      // Reads keep working: the stored file, the avatar list, the knowledge list.
      const read = await within(5000, `${url}${keptUrl}`, { headers: kb });
      expect(read.status).toBe(200);
      expect((await read.text()).startsWith('line 0 of the notes')).toBe(true);
      expect((await within(5000, `${url}/api/avatar/list`, { headers: session })).status).toBe(200);

      // Low: uploads refused, other writes work.
      leaveFree((CRITICAL_MB + MIN_FREE_MB) / 2);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await health()).toBe('low');
      expect((await login()).status).toBe(200);
      expect((await upload(2)).status).toBe(507);

      // Space returns: everything works again without a restart.
      rmSync(join(mountPoint, 'filler'), { force: true });
      await new Promise((r) => setTimeout(r, 1100));
      expect(await health()).toBe('ok');
      expect((await login()).status).toBe(200);
      expect((await upload(3)).status).toBe(200);
    },
    180_000,
  );
});
