// The environment, parsed once at boot. A bad variable stops the start with every problem named.
import { z } from 'zod';
import { parseUrlOverrides } from '@parla/shared/provider-urls';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  APP_KEY: z.string().min(8).default('parla-web-app-key'),
  SECRET_KEY: z.string().min(32).optional(),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().default('Parla <no-reply@parla.test>'),
  ALLOW_REGISTRATION: bool.default(true),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  DOCS_URL: z.string().default('/react/docs'),
  /** Comma-separated host:port pairs outbound requests may reach although private (tests). */
  OUTBOUND_ALLOW: z.string().default(''),
  OUTBOUND_ALLOW_PRIVATE: bool.default(false),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().optional(),
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
  /** Conversations the server's own (in-process) pipeline node takes at once; more go to other nodes. */
  LOCAL_NODE_CAPACITY: z.coerce.number().int().min(1).max(100_000).default(200),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Sign-in, registration and reset requests per minute from one address. */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  TRUST_PROXY: bool.default(false),
  /** GET /metrics answers only with `Authorization: Bearer <this>`; unset → /metrics is 404 (docs/deploy.md). */
  METRICS_TOKEN: z.string().min(16).optional(),
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
