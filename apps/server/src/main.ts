// Process entry: configuration from the environment, start, graceful shutdown within
// SHUTDOWN_GRACE_MS (lib/shutdown.ts, decision 014).
import { parseConfig } from './config';
import { runDir } from './lib/run-dir';
import { handleShutdownSignals } from './lib/shutdown';
import { adminBanner } from './modules/auth/first-admin';
import { startServer } from './server';

async function main(): Promise<void> {
  const config = parseConfig();
  // The run directory now, so the ones of servers killed before this start are removed at once.
  runDir();
  const server = await startServer(config);
  // Without SMTP a mail is printed here as readably as the banner (a verification link to open).
  if (!config.SMTP_URL) server.ctx.mailer.printTo = (text) => process.stdout.write(text);
  if (server.admin) process.stdout.write(adminBanner(server.admin) + '\n');
  process.stdout.write(`Parla is running: ${config.PUBLIC_URL}/react\n`);
  handleShutdownSignals({
    name: 'parla',
    graceMs: config.SHUTDOWN_GRACE_MS,
    log: server.app.log,
    close: (steps) => server.close(steps),
    abandon: () => server.abandon(),
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
