// Entry of `npm run backup` and `npm run restore` (src/backup.ts; docs/deploy.md "Backup and restore").
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backup, restore } from './backup';

const KEY_WARNING =
  'SECRET_KEY is set in the environment, so this backup does not hold it: keep that key with the backup. ' +
  'Without it, the stored secrets (provider keys, encryption keys) cannot be decrypted.';

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dataDir = resolve(flag('data-dir') ?? process.env.DATA_DIR ?? './data');
  if (command === 'backup') {
    const out = flag('out');
    const email = process.env.ADMIN_EMAIL;
    const password = process.env.ADMIN_PASSWORD;
    if (!out || !email || !password)
      throw new Error('usage: ADMIN_EMAIL=… ADMIN_PASSWORD=… npm run backup -- --out DIR [--url URL] [--data-dir DIR]');
    const url = (flag('url') ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`).replace(/\/$/, '');
    const done = await backup({ url, dataDir, out: resolve(out), appKey: process.env.APP_KEY ?? 'parla-web-app-key', email, password });
    process.stdout.write(
      `Backup written to ${resolve(out)}: database ${done.bytes} bytes, ${done.files} files${done.secretKey ? ', secret.key' : ''}\n`,
    );
    if (!done.secretKey || process.env.SECRET_KEY) process.stderr.write(`\n*** ${KEY_WARNING} ***\n\n`);
    return;
  }
  if (command === 'restore') {
    const from = args.find((a) => !a.startsWith('--') && a !== flag('data-dir'));
    if (!from) throw new Error('usage: npm run restore -- BACKUP_DIR [--data-dir DIR]');
    await restore(resolve(from), dataDir);
    process.stdout.write(`Restored ${resolve(from)} into ${dataDir}; start the server with DATA_DIR=${dataDir}\n`);
    if (!existsSync(join(resolve(from), 'secret.key'))) process.stderr.write(`\n*** ${KEY_WARNING} ***\n\n`);
    return;
  }
  throw new Error('usage: npm run backup -- --out DIR | npm run restore -- BACKUP_DIR');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
