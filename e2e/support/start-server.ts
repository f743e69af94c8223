// The server under end-to-end test: a fresh DATA_DIR, a known administrator, a real SMTP
// capture (read by tests over a small HTTP endpoint), and the stand-ins of third-party
// providers on loopback ports the outbound guard is told to allow. Test-only code.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../apps/server/src/config';
import { startServer } from '../../apps/server/src/server';
import { ensureSnapshot, snapshotBlob } from '../../apps/server/test/pglite-snapshot';
import { startSmtpCapture } from '../../apps/server/test/smtp-capture';
import { E2E_ADMIN } from './accounts';
import { E2E_PORT, MAIL_READER_PORT, SEED_PORT } from './ports';
import { startSeedControl } from './seed-control';
import { startStandIns } from './stand-ins';

const smtp = await startSmtpCapture();
const standIns = await startStandIns();

const mailReader = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const to = url.searchParams.get('to')?.toLowerCase();
  const list = smtp.messages.filter((m) => !to || m.to.includes(to));
  res.setHeader('content-type', 'application/json');
  // No keep-alive: a mail read failed once with ECONNRESET (a local validate, account.spec), the
  // likely cause a reused socket that the server was closing as idle (5 s); none is reused now.
  res.setHeader('connection', 'close');
  res.end(JSON.stringify(list.map((m) => ({ to: m.to, subject: m.subject, text: m.text }))));
});
await new Promise<void>((resolve) => mailReader.listen(MAIL_READER_PORT, '127.0.0.1', () => resolve()));

// The run's data directory goes when the server stops (each run left ~45 MB in the temporary folder).
const dataDir = mkdtempSync(join(tmpdir(), 'parla-e2e-'));
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const config = parseConfig({
  ...process.env,
  PORT: String(E2E_PORT),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  SMTP_URL: smtp.url,
  ADMIN_EMAIL: E2E_ADMIN.email,
  ADMIN_PASSWORD: E2E_ADMIN.password,
  APP_KEY: 'e2e-app-key-0123456789',
  AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  OUTBOUND_ALLOW: standIns.allow.join(','),
  LOG_LEVEL: 'warn',
  ...standIns.env,
});
// PGlite starts from the migrated snapshot the API tests use (made once per set of migrations):
// no initdb and no migrations at each of the run's server starts (issue 16, CI time).
const server = await startServer(config, { loadDataDir: snapshotBlob(await ensureSnapshot()) });
const seedControl = await startSeedControl(server.ctx, SEED_PORT);
process.stdout.write(`e2e server on ${config.PUBLIC_URL}\n`);

const stop = async () => {
  await server.close();
  await smtp.close();
  await standIns.close();
  mailReader.close();
  seedControl.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
