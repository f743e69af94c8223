// Process entry: configuration from the environment, start, graceful shutdown.
import { parseConfig } from './config';
import { adminBanner } from './modules/auth/first-admin';
import { startServer } from './server';

async function main(): Promise<void> {
  const config = parseConfig();
  const server = await startServer(config);
  if (server.admin) process.stdout.write(adminBanner(server.admin) + '\n');
  process.stdout.write(`Parla is running: ${config.PUBLIC_URL}/react\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await server.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
