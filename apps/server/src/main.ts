// Process entry: configuration, database, migrations, first administrator, listen, shutdown.
import { mkdirSync } from 'node:fs';
import { build } from './app';
import { parseConfig } from './config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { loadSecretKey } from './lib/secrets';
import { ensureFirstAdmin } from './modules/auth/auth.service';

async function main(): Promise<void> {
  const config = parseConfig();
  mkdirSync(config.DATA_DIR, { recursive: true });
  const database = await openDatabase({
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: config.DATA_DIR }),
    log: (message, err) => console.error(message, err instanceof Error ? err.message : err),
  });
  await migrate(database.db);
  const secretKey = loadSecretKey(config.SECRET_KEY, config.DATA_DIR);
  const { app, ctx } = await build({ config, database, secretKey });

  const admin = await ensureFirstAdmin(ctx);
  if (admin) {
    const lines = [
      '',
      '================ Parla administrator created ================',
      `  Email:    ${admin.email}`,
      admin.generatedPassword
        ? `  Password: ${admin.generatedPassword}\n  (shown once: store it now; set ADMIN_EMAIL / ADMIN_PASSWORD to choose your own)`
        : '  Password: the ADMIN_PASSWORD you configured',
      '=============================================================',
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  process.stdout.write(`Parla is running: ${config.PUBLIC_URL}/react\n`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
