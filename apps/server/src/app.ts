// build(): the Fastify application with its plugins and every feature module.
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/database';
import { AppError } from './lib/errors';
import { DiskSpace } from './lib/disk-space';
import { FileStore } from './lib/file-store';
import { Mailer, mailerOptionsFromConfig } from './lib/mailer';
import { OutboundClient, outboundPolicyFromConfig, type OutboundPolicy } from './lib/outbound';
import { SecretBox } from './lib/secrets';
import { registerAuth } from './plugins/auth';
import { SESSION_CACHE_MAX_ENTRIES, SessionCache } from './modules/auth/session-cache';
import { SessionInvalidation } from './modules/auth/session-invalidation';
import { registerCompression } from './plugins/compression';
import { guardedValidatorCompiler } from './plugins/validation';
import { keepWal } from './db/wal';
import { frameworkErrors, registerErrorHandlers } from './plugins/errors';
import { registerSpa } from './plugins/spa';
import { registerConnectionCap } from './plugins/connection-cap';
import { accountRoutes } from './modules/account/account.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { encryptionKeyRoutes } from './modules/encryption-keys/encryption-keys.routes';
import { functionRoutes } from './modules/functions/functions.routes';
import { functionTryRoutes } from './modules/functions/function-try.routes';
import { knowledgeRoutes } from './modules/knowledge/knowledge.routes';
import { oauthConfigRoutes } from './modules/oauth-configs/oauth-configs.routes';
import { avatarRoutes } from './modules/avatars/avatars.routes';
import { configFilesRoutes } from './modules/config-files/config-files.routes';
import { portalRoutes } from './modules/portal/portal.routes';
import { catalogueRoutes } from './modules/catalogue/catalogue.routes';
import { playerRoutes } from './modules/player/player.routes';
import { CONVERSATION_MAX_FRAME_BYTES } from '@parla/shared/schemas/conversation';
import { brainRoutes } from './modules/brain/brain.routes';
import { brainTestRoutes } from './modules/brain/brain-test.routes';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import { transcriptRoutes } from './modules/conversations/transcripts.routes';
import { insightRoutes } from './modules/insight/insight.routes';
import { avatarHooks } from './runtime/avatar-config';
import { Runtime } from './runtime/runtime';
import { runtimeRoutes } from './runtime/runtime.routes';
import { voiceSampleRoutes } from './runtime/voice-sample.routes';
import { watchSuspensions } from './runtime/suspension';
import { socketErrorHandler } from './runtime/socket-errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The conversation runtime (runtime/runtime.ts). */
    runtime: Runtime;
    /** What keeps the session cache honest (modules/auth/session-invalidation.ts). */
    sessionInvalidation: SessionInvalidation;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  secretKey: string;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  now?: () => Date;
  /** Serve the built SPA (off in API tests). */
  serveWeb?: boolean;
  /** Called for every route as it is registered (the attack tests enumerate the routes). */
  onRoute?: (route: RouteOptions) => void;
  /** How the SSRF-guarded client resolves names (tests resolve without DNS). */
  outboundResolver?: OutboundPolicy['resolve'];
}

const SENSITIVE_QUERY = /([?&](?:token|adminSessionId|code|key|api_key|jwt|access_token)=)[^&]*/gi;

export async function build(opts: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const { config, database } = opts;
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: req.url.replace(SENSITIVE_QUERY, '$1[redacted]'),
          ip: req.ip,
        }),
      },
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    trustProxy: config.TRUST_PROXY,
    requestTimeout: 60_000,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    frameworkErrors,
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace' }),
  });
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  app.setValidatorCompiler(guardedValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const secrets = new SecretBox(opts.secretKey);
  const disk = new DiskSpace(config.DATA_DIR, { minFreeMb: config.DISK_MIN_FREE_MB, criticalMb: config.DISK_CRITICAL_MB }, app.log);
  // On PGlite's own disk, writes stop before PostgreSQL runs out of room for its WAL.
  if (database.kind === 'pglite') database.guardWrites?.(() => disk.writesBlocked());
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    secrets,
    jwtKey: SecretBox.derive(opts.secretKey, 'knowledge-jwt'),
    outbound: new OutboundClient({
      ...outboundPolicyFromConfig(config),
      ...(opts.outboundResolver ? { resolve: opts.outboundResolver } : {}),
    }),
    mailer: new Mailer(database.db, app.log, mailerOptionsFromConfig(config), opts.now),
    files: new FileStore(config.DATA_DIR, disk, database.kind === 'pglite'),
    disk,
    sessions: new SessionCache({ ttlMs: config.SESSION_CACHE_TTL_MS, maxEntries: SESSION_CACHE_MAX_ENTRIES }),
    log: app.log,
    now: opts.now ?? (() => new Date()),
  };
  // The cache serves only once the LISTEN is in effect (onReady) and stops before the database
  // closes (onClose); a server that never got ready looks every session up.
  const invalidation = new SessionInvalidation(database, ctx.sessions, app.log);
  app.decorate('sessionInvalidation', invalidation);
  app.addHook('onReady', async () => {
    await invalidation.start();
  });
  app.addHook('onClose', async () => {
    await invalidation.stop();
  });

  registerErrorHandlers(app);
  // First of the hooks: a connection beyond its address's cap runs nothing of the application.
  if (!config.TRUST_PROXY) registerConnectionCap(app, config.MAX_CONNECTIONS_PER_ADDRESS);
  // Before every route: its onRoute hook gives each route registered after it the compression.
  await registerCompression(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, context) =>
      AppError.rateLimited(context.ttl / 1000, 'Too many requests from this address. Please wait a minute and try again.'),
  });
  registerAuth(app, ctx);
  // Multipart bodies are not covered by bodyLimit: these are the ceilings; each route checks
  // its own smaller limits while streaming (lib/file-store.ts).
  await app.register(multipart, {
    limits: { fileSize: 26 * 1024 * 1024, files: 5, fields: 20, fieldSize: 2 * 1024 * 1024, parts: 30 },
  });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  });

  // WebSockets (conversations, pipeline nodes): frames above the cap close with 1009.
  // A client's protocol error (such as that) is logged at info, not as a server error.
  await app.register(websocket, { options: { maxPayload: CONVERSATION_MAX_FRAME_BYTES }, errorHandler: socketErrorHandler });

  await app.register(portalRoutes(ctx));
  await app.register(catalogueRoutes(ctx));
  await app.register(playerRoutes(ctx));
  await app.register(authRoutes(ctx));
  await app.register(accountRoutes(ctx));
  await app.register(oauthConfigRoutes(ctx));
  // The runtime is decorated below; the closure reads it when an account is suspended.
  await app.register(adminRoutes(ctx, { accountSuspended: (userId) => app.runtime.endOwnerEverywhere(userId) }));
  await app.register(knowledgeRoutes(ctx));
  await app.register(functionRoutes(ctx));
  await app.register(encryptionKeyRoutes(ctx));
  await app.register(avatarRoutes(ctx));
  await app.register(configFilesRoutes(ctx));
  await app.register(brainRoutes(ctx));
  await app.register(transcriptRoutes(ctx));
  await app.register(insightRoutes(ctx));

  const runtime = new Runtime(ctx, avatarHooks());
  app.decorate('runtime', runtime);
  await app.register(runtimeRoutes(ctx, runtime));
  await app.register(brainTestRoutes(ctx, runtime.deps));
  await app.register(voiceSampleRoutes(ctx, runtime));
  await app.register(functionTryRoutes(ctx, runtime.sandbox));
  await app.register(metricsRoutes(ctx, runtime.metrics));
  let stopSuspensionWatch = (): void => undefined;
  let stopWalKeeper = async (): Promise<void> => undefined;
  app.addHook('onReady', async () => {
    await runtime.start();
    stopSuspensionWatch = watchSuspensions(runtime);
    stopWalKeeper = await keepWal(database, (err) => app.log.warn({ err: String(err) }, 'the WAL check failed'));
  });

  if (opts.serveWeb !== false) await registerSpa(app);

  app.addHook('onClose', async () => {
    stopSuspensionWatch();
    await runtime.stop();
    await stopWalKeeper();
    // The sender (started by server.ts or the test harness) ends its attempt under way first.
    await ctx.mailer.stop();
    await ctx.outbound.close();
  });
  return { app, ctx };
}
