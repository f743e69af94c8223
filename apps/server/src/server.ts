// Starts Parla: database, migrations, first administrator, HTTP listener. Used by main.ts and
// by the end-to-end test launcher.
import { mkdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { build } from './app';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { moveFilesIntoDatabase } from './lib/file-move';
import { loadSecretKey } from './lib/secrets';
import { SHUTDOWN_CALL_TIMEOUT_MS, ShutdownSteps, type ShutdownLog } from './lib/shutdown';
import { ensureFirstAdmin, type FirstAdmin } from './modules/auth/first-admin';
import { stopExtractions } from './modules/knowledge/knowledge.extract-runner';
import { startKnowledgeWorker } from './modules/knowledge/knowledge.worker';

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  admin: FirstAdmin | null;
  /** Shuts down in order within the steps' grace period (decision 014); tests call it bare. */
  close(steps?: ShutdownSteps): Promise<void>;
  /** At the deadline: kills the children (sandbox, extraction) before the process exits. */
  abandon(): void;
}

/** Time kept back from the steps before the database closes, so it still closes. */
const DATABASE_RESERVE_MS = 1_000;

/** `loadDataDir`: PGlite only, a dumped data directory to start a new DATA_DIR from (the
 *  end-to-end launcher starts from the test run's migrated snapshot instead of running initdb). */
export async function startServer(config: Config, opts: { loadDataDir?: Blob } = {}): Promise<RunningServer> {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const database = await openDatabase({
    ...(config.DATABASE_URL
      ? { databaseUrl: config.DATABASE_URL }
      : { dataDir: config.DATA_DIR, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) }),
    log: (message, err) => console.error(message, err instanceof Error ? err.message : err),
  });
  await migrate(database.db, database.schema);
  const secretKey = loadSecretKey(config.SECRET_KEY, config.DATA_DIR);
  const { app, ctx } = await build({ config, database, secretKey });
  const admin = await ensureFirstAdmin(ctx);
  // Files an older release kept in DATA_DIR move into the database before the server answers
  // (decision 015): one transaction per file, resumed at the next start if stopped.
  await moveFilesIntoDatabase(ctx.db, ctx.files, { disk: ctx.disk, databaseOnDisk: database.kind === 'pglite', log: app.log });
  await app.listen({ port: config.PORT, host: config.HOST });
  // Crash leftovers (upload temp files never discarded) are removed now and every hour.
  const sweep = () => ctx.files.sweep().catch((err) => app.log.warn({ err }, 'file sweep failed'));
  void sweep();
  // Rows whose bytes are not in the database answer 404: say so loudly at start (issue 34).
  void warnAboutMissingFiles(ctx);
  const sweeper = setInterval(() => void sweep(), 60 * 60 * 1000);
  sweeper.unref();
  // Background work of feature modules: started once the server listens (queued work left by
  // an earlier run resumes now), stopped before the database closes.
  ctx.mailer.start();
  const background: { stop(): Promise<void> }[] = [
    startKnowledgeWorker(ctx, { processId: app.runtime.delivery.id, documentSlots: config.KNOWLEDGE_DOCUMENT_SLOTS }),
    ctx.mailer,
  ];
  const abandon = () => {
    app.runtime.killChildren();
    stopExtractions();
  };
  return {
    app,
    ctx,
    admin,
    abandon,
    close: async (steps = new ShutdownSteps(60_000)) => {
      const log: ShutdownLog = app.log;
      const share = () => Math.max(0, steps.remaining() - DATABASE_RESERVE_MS);
      clearInterval(sweeper);
      // Stop accepting: no new connection, no new conversation; every outbound call is short now.
      ctx.outbound.shutdown(SHUTDOWN_CALL_TIMEOUT_MS);
      const drained = new Promise<void>((r) => app.server.close(() => r()));
      // The knowledge items being processed go back to the queue now, before the outbound calls
      // under way are dropped (a dropped download must not fail the item): the next process
      // resumes them. Their work here is waited for a little after the conversations, then abandoned.
      const handedBack = Promise.all(background.map((job) => job.stop())).catch((err: unknown) =>
        log.warn({ err: String(err) }, 'stopping the background work failed'),
      );
      // Every open conversation is told why it ends, recorded, billed, its transcript written.
      await steps.run('conversations', () => app.runtime.endAll(), log, share());
      await steps.run('knowledge worker', () => handedBack, log, share() / 4);
      // Requests under way finish (those that do not are cut at their share of the grace).
      await steps.run('requests in flight', () => drained, log, share() / 2);
      app.server.closeAllConnections();
      abandon();
      await steps.run('http server', () => app.close(), log, share());
      await steps.run('database', () => database.close(), log);
    },
  };
}

/** Counts the stored files whose bytes are not in the database and logs an error naming them;
 *  never changes a row (decision 015). */
export async function warnAboutMissingFiles(ctx: AppContext): Promise<void> {
  try {
    const { checked, missing, examples } = await ctx.files.missing(ctx.db);
    if (missing > 0)
      ctx.log.error(
        { missing, checked, examples, dataDir: ctx.files.root },
        `${missing} of ${checked} stored files have no bytes in the database: they will answer 404. ` +
          `Start the server once on the DATA_DIR of the release that stored them (it moves them into the database), or restore them from a backup; no row was changed.`,
      );
  } catch (err) {
    ctx.log.warn({ err }, 'stored files check failed');
  }
}
