// Secrets of an avatar: the REST API key, the Dialogflow JSON key, the billing authorization
// header, and every api_key / secret_key inside the pipeline config. Stored encrypted, answered
// masked; a masked value sent back means "unchanged", an empty one means "remove".
import { PIPELINE_SECRET_KEYS } from '@parla/shared/schemas/avatar';
import { isMasked, mask, type SecretBox } from '../../lib/secrets';

const SECRET_KEYS = new Set<string>(PIPELINE_SECRET_KEYS);
const ENCRYPTED = /^v1:[\w-]+:[\w-]+:[\w-]*$/;

/** The stored (encrypted) value for an incoming plain, masked, empty or absent one. */
export function nextSecret(box: SecretBox, incoming: string | null | undefined, stored: string | null): string | null {
  if (incoming === undefined || isMasked(incoming)) return stored;
  if (incoming === null || incoming === '') return null;
  return box.encrypt(incoming);
}

export function reveal(box: SecretBox, stored: string | null | undefined): string | null {
  if (!stored) return null;
  if (!ENCRYPTED.test(stored)) return stored;
  try {
    return box.decrypt(stored);
  } catch {
    return null;
  }
}

export function masked(box: SecretBox, stored: string | null | undefined): string {
  return mask(reveal(box, stored));
}

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Walks a new pipeline config: each secret key's plain value is encrypted; a masked one takes the
 * stored value at the same place. Everything else is copied as sent.
 */
export function sealPipeline(box: SecretBox, incoming: Json, stored: Json): Json {
  if (Array.isArray(incoming)) return incoming.map((v, i) => sealPipeline(box, v, Array.isArray(stored) ? stored[i] : undefined));
  if (!isObject(incoming)) return incoming;
  const before = isObject(stored) ? stored : {};
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(incoming)) {
    if (SECRET_KEYS.has(key) && typeof value === 'string') {
      const prior = typeof before[key] === 'string' ? (before[key] as string) : null;
      out[key] = nextSecret(box, value, prior) ?? '';
    } else {
      out[key] = sealPipeline(box, value, before[key]);
    }
  }
  return out;
}

/** The pipeline config as answered: every secret masked. */
export function maskPipeline(box: SecretBox, stored: Json): Json {
  if (Array.isArray(stored)) return stored.map((v) => maskPipeline(box, v));
  if (!isObject(stored)) return stored;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(stored)) {
    out[key] = SECRET_KEYS.has(key) && typeof value === 'string' ? masked(box, value) : maskPipeline(box, value);
  }
  return out;
}

/** The pipeline config with secrets in clear, for the runtime that calls the providers. */
export function revealPipeline(box: SecretBox, stored: Json): Json {
  if (Array.isArray(stored)) return stored.map((v) => revealPipeline(box, v));
  if (!isObject(stored)) return stored;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(stored)) {
    out[key] = SECRET_KEYS.has(key) && typeof value === 'string' ? (reveal(box, value) ?? '') : revealPipeline(box, value);
  }
  return out;
}
