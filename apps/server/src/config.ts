// The environment, parsed once at boot. A bad variable stops the start with every problem named.
import { z } from 'zod';
import { parseUrlOverrides } from '@parla/shared/provider-urls';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** The function sandbox's caps (decision 412), shared with the pipeline node (node-main.ts). The
 *  defaults suit a 2-core machine: each process holds about 190 MB and one core while it runs. */
export const sandboxEnvSchema = z.object({
  /** Function processes alive at once, the one kept warm included. */
  SANDBOX_MAX_PROCESSES: z.coerce.number().int().min(1).max(256).default(3),
  /** Function calls of one account running at once. */
  SANDBOX_MAX_PROCESSES_PER_OWNER: z.coerce.number().int().min(1).max(256).default(2),
  /** How long a call waits for a free process before the model is told the server is busy. */
  SANDBOX_QUEUE_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** A function call's own running time before its process is killed (tests use less). */
  SANDBOX_WALL_CLOCK_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
});

/** The Sandbox's options from the configuration. */
export function sandboxCaps(cfg: z.infer<typeof sandboxEnvSchema>): {
  maxProcesses: number;
  maxPerOwner: number;
  queueWaitMs: number;
  wallClockMs: number;
} {
  return {
    wallClockMs: cfg.SANDBOX_WALL_CLOCK_MS,
    maxProcesses: cfg.SANDBOX_MAX_PROCESSES,
    maxPerOwner: cfg.SANDBOX_MAX_PROCESSES_PER_OWNER,
    queueWaitMs: cfg.SANDBOX_QUEUE_WAIT_MS,
  };
}

const envSchema = sandboxEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  APP_KEY: z.string().min(8).default('parla-web-app-key'),
  SECRET_KEY: z.string().min(32).optional(),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().default('Parla <no-reply@parla.test>'),
  /** The mail outbox's sender (decision 012): attempts per mail before it is marked failed, the
   *  first wait after a failure (doubling, with jitter, up to an hour: 8 attempts span about an
   *  hour and a half), each SMTP timeout (connection, greeting, socket), and how often it looks
   *  for mail written by another process. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  MAIL_SMTP_TIMEOUT_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
  MAIL_POLL_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  ALLOW_REGISTRATION: bool.default(true),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  DOCS_URL: z.string().default('/react/docs'),
  /** Comma-separated host:port pairs outbound requests may reach although private (tests). */
  OUTBOUND_ALLOW: z.string().default(''),
  OUTBOUND_ALLOW_PRIVATE: bool.default(false),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().optional(),
  /** A streamed model answer (every LLM brain) has failed when the model sent nothing for this
   *  long: before its first event, then between two events (decision 614; docs/settings.md). */
  LLM_FIRST_TOKEN_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  LLM_STALL_MS: z.coerce.number().int().min(100).max(300_000).default(8_000),
  /** The product's own speech (Simple mode and every "Default" STT/TTS): a server speaking the
   *  OpenAI audio API (POST {base}/audio/transcriptions and {base}/audio/speech), e.g.
   *  https://api.openai.com/v1. Unset → the browser's speech. */
  SPEECH_BASE_URL: z.url().optional(),
  SPEECH_API_KEY: z.string().optional(),
  SPEECH_STT_MODEL: z.string().min(1).default('whisper-1'),
  SPEECH_TTS_MODEL: z.string().min(1).default('tts-1'),
  SPEECH_TTS_VOICE: z.string().min(1).default('alloy'),
  /** The voice shipped with the server (Flite, decision 122): it speaks for Simple mode and every
   *  "Default" TTS when SPEECH_BASE_URL is unset. `false` leaves that speech to the browser. */
  EMBEDDED_VOICE: bool.default(true),
  /** Its worker processes (default: one per core but one, at least one). */
  EMBEDDED_VOICE_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Providers' hosts redirected elsewhere, `host=http(s)://address` pairs separated by commas
   *  (tests point api.openai.com and the other providers at loopback stand-ins). */
  PROVIDER_URL_OVERRIDES: z
    .string()
    .default('')
    .refine((v) => parseUrlOverrides(v).errors.length === 0, { error: (i) => parseUrlOverrides(String(i.input)).errors.join('; ') }),
  NODE_SECRET: z.string().min(16).optional(),
  /** An OpenAI-compatible embeddings API (POST {base}/embeddings) for hybrid knowledge search;
   *  unset → full-text search only. Used only where pgvector exists. */
  EMBEDDING_BASE_URL: z.url().optional(),
  EMBEDDING_API_KEY: z.string().optional(),
  EMBEDDING_MODEL: z.string().min(1).optional(),
  /** Requests safe to repeat (mail, embeddings, Google tokens; decision 010): attempts in all and
   *  the first backoff in ms (doubling, with jitter). */
  RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  RETRY_BASE_MS: z.coerce.number().int().min(1).max(60_000).default(400),
  /** Knowledge crawls per minute from one address (each fetches up to 20 pages). */
  CRAWL_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Knowledge documents (files, pages) one process reads at once, each in an extraction child of
   *  up to 640 MB; one owner holds at most this minus one (decision 411). */
  KNOWLEDGE_DOCUMENT_SLOTS: z.coerce.number().int().min(1).max(32).default(2),
  /** Conversations the server's own (in-process) pipeline node takes at once; more go to other nodes. */
  LOCAL_NODE_CAPACITY: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Free space of DATA_DIR below which uploads are refused (507, "not enough space") and the
   *  health endpoint reports `disk: 'low'` (decision 013). */
  DISK_MIN_FREE_MB: z.coerce.number().int().min(0).default(256),
  /** Below this, the embedded database's writes are refused too, before PGlite runs out of room
   *  for its write-ahead log (which would stop the server for good; decision 013). */
  DISK_CRITICAL_MB: z.coerce.number().int().min(0).default(64),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long a session look-up is kept in the process (decision 017): a sign-out, suspension or
   *  role change still ends it at once everywhere (the database notifies every process); this
   *  bounds only a change nobody was told of. 0 turns the cache off. */
  SESSION_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  /** Sign-in, registration and reset requests per minute from one address. */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  TRUST_PROXY: bool.default(false),
  /** Connections (HTTP and WebSocket) one client address may hold open at once; 0 → no cap.
   *  Not applied with TRUST_PROXY (the proxy is then every connection's address). */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /** GET /metrics answers only with `Authorization: Bearer <this>`; unset → /metrics is 404 (docs/deploy.md). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** SIGTERM/SIGINT: the process is gone within this many milliseconds (decision 014); the process
   *  manager's own grace period must be longer (docs/deploy.md). */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(3000).max(600_000).default(10_000),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'PUBLIC_URL'> {
  PUBLIC_URL: string;
}

export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = result.data;
  return { ...cfg, PUBLIC_URL: (cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/$/, '') };
}
