import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, login } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import type { AppContext } from '../../context';
import { ADMIN_PASSWORD_FILE, adminBanner, ensureFirstAdmin } from './first-admin';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
  mkdirSync(server.ctx.config.DATA_DIR, { recursive: true });
});
afterAll(async () => {
  await server.close();
  rmSync(server.ctx.config.DATA_DIR, { recursive: true, force: true });
});
afterEach(async () => {
  // Each case starts with no administrator.
  await server.ctx.db.updateTable('users').set({ user_type: 'CUSTOMER' }).where('user_type', '=', 'ADMIN').execute();
});

function withConfig(config: Partial<AppContext['config']>): AppContext {
  return { ...server.ctx, config: { ...server.ctx.config, ...config } };
}

const file = () => join(server.ctx.config.DATA_DIR, ADMIN_PASSWORD_FILE);

describe('first administrator', () => {
  it('writes the generated password to a 0600 file and prints only the email and the file', async () => {
    const admin = await ensureFirstAdmin(withConfig({ ADMIN_EMAIL: 'generated-admin@example.com', ADMIN_PASSWORD: undefined }));
    expect(admin?.password).toEqual({ from: 'file', path: file() });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    const password = readFileSync(file(), 'utf8').trim();
    const banner = adminBanner(admin!);
    expect(banner).toContain('generated-admin@example.com');
    expect(banner).toContain(file());
    expect(banner).not.toContain(password);
    await login(server, 'generated-admin@example.com', password);
  });

  it('writes no file and names ADMIN_PASSWORD when it is set', async () => {
    const dir = join(server.ctx.config.DATA_DIR, 'configured');
    mkdirSync(dir);
    const admin = await ensureFirstAdmin(
      withConfig({ ADMIN_EMAIL: 'configured-admin@example.com', ADMIN_PASSWORD: 'configured admin password', DATA_DIR: dir }),
    );
    expect(admin?.password).toEqual({ from: 'config' });
    expect(existsSync(join(dir, ADMIN_PASSWORD_FILE))).toBe(false);
    expect(adminBanner(admin!)).not.toContain('configured admin password');
    await login(server, 'configured-admin@example.com', 'configured admin password');
  });

  it('makes an existing account the administrator and says its own password applies', async () => {
    const account = await createCustomer(server, 'promoted');
    const admin = await ensureFirstAdmin(withConfig({ ADMIN_EMAIL: account.email, ADMIN_PASSWORD: undefined }));
    expect(admin?.password).toEqual({ from: 'existing' });
    expect(adminBanner(admin!)).toMatch(/existing account/);
    const row = await server.ctx.db.selectFrom('users').select('user_type').where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(row.user_type).toBe('ADMIN');
  });

  it('does not write through a link planted where the password file goes', async () => {
    const dir = join(server.ctx.config.DATA_DIR, 'planted');
    mkdirSync(dir);
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'untouched\n', { mode: 0o644 });
    symlinkSync(target, join(dir, ADMIN_PASSWORD_FILE));
    await ensureFirstAdmin(withConfig({ ADMIN_EMAIL: 'planted-admin@example.com', ADMIN_PASSWORD: undefined, DATA_DIR: dir }));
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
    expect(lstatSync(join(dir, ADMIN_PASSWORD_FILE)).isSymbolicLink()).toBe(false);
    expect(statSync(join(dir, ADMIN_PASSWORD_FILE)).mode & 0o777).toBe(0o600);
  });

  it('does nothing when an administrator exists', async () => {
    await ensureFirstAdmin(withConfig({ ADMIN_EMAIL: 'first-of-two@example.com', ADMIN_PASSWORD: 'first admin password' }));
    expect(await ensureFirstAdmin(withConfig({ ADMIN_EMAIL: 'second-of-two@example.com', ADMIN_PASSWORD: undefined }))).toBeNull();
  });
});
