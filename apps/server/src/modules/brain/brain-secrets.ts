// The secrets of a saved pipeline (customData.agent_pipeline_config): speech-to-text, text-to-
// speech (and Polly's secret), LLM / REST / Dialogflow (the JSON key text), speech-to-speech and
// third-party agent keys. Stored encrypted (AES-256-GCM, lib/secrets.ts), answered masked. A
// masked value sent back keeps the stored one, but only for the same provider: a key is never
// carried over to another provider or base URL (that would hand it to a different host).
import { AvatarEngine } from '@parla/shared/enums';
import type { SecretRef } from '@parla/shared/schemas/brain';
import { isMasked, mask, type SecretBox } from '../../lib/secrets';

type Loose = Record<string, unknown>;
export type SecretCodec = Pick<SecretBox, 'encrypt' | 'decrypt'>;

interface SecretSlot {
  ref: SecretRef;
  path: [string] | [string, string];
  /** What the key belongs to; a change means the stored key does not apply. */
  owner(config: Loose, engine?: number): string;
}

/** The engines of the pipeline being saved and of the one stored (third_party serves two). */
export interface SecretContext {
  engine?: number;
  previousEngine?: number;
}

const obj = (v: unknown): Loose => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export const PIPELINE_SECRET_SLOTS: readonly SecretSlot[] = [
  { ref: 'stt', path: ['stt', 'api_key'], owner: (c) => str(obj(c.stt).provider) },
  { ref: 'tts', path: ['tts', 'api_key'], owner: (c) => str(obj(c.tts).provider) },
  { ref: 'tts_secret', path: ['tts', 'secret_key'], owner: (c) => str(obj(c.tts).provider) },
  {
    ref: 'llm',
    path: ['llm', 'api_key'],
    // REST keys go to the customer's own endpoint, whichever URL it has; LLM keys belong to one base URL.
    owner: (c) => {
      const llm = obj(c.llm);
      return str(llm.provider) === 'rest' ? 'rest' : `${str(llm.provider)}|${str(llm.base_url).replace(/\/+$/, '')}`;
    },
  },
  { ref: 'realtime', path: ['api_key'], owner: (c) => str(c.url).replace(/\/+$/, '') },
  // ElevenLabs' agent key, or Agora TEN's App Certificate: never one for the other.
  {
    ref: 'third_party',
    path: ['third_party', 'api_key'],
    owner: (_c, engine) => (engine === AvatarEngine.Ten ? 'agora_ten' : 'elevenlabs'),
  },
];

const ENCRYPTED = /^v1:[\w-]+:[\w-]+:[\w-]*$/;

function get(c: Loose, path: SecretSlot['path']): unknown {
  return path.length === 1 ? c[path[0]] : obj(c[path[0]])[path[1]];
}

function set(c: Loose, path: SecretSlot['path'], value: string | null): void {
  if (path.length === 1) {
    if (path[0] in c) c[path[0]] = value;
    return;
  }
  const parent = c[path[0]];
  if (typeof parent === 'object' && parent !== null && path[1] in parent) (parent as Loose)[path[1]] = value;
}

function copy<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** The plain value of a stored secret; legacy unencrypted values read as they are. */
export function revealValue(codec: SecretCodec, stored: unknown): string | null {
  if (typeof stored !== 'string' || !stored) return null;
  if (!ENCRYPTED.test(stored)) return stored;
  try {
    return codec.decrypt(stored);
  } catch {
    return null;
  }
}

export interface EncryptedPipeline<T> {
  config: T;
  /** Masked values sent back for which no stored key applies (the user must enter it again). */
  unresolved: SecretRef[];
}

/**
 * The pipeline to store: plain secrets encrypted, masked ones replaced by the stored value of
 * the same provider, empty ones removed.
 */
export function encryptSecrets<T>(codec: SecretCodec, config: T, previous: unknown, engines: SecretContext = {}): EncryptedPipeline<T> {
  const out = copy(config) as unknown as Loose;
  const prev = obj(previous);
  const unresolved: SecretRef[] = [];
  if (typeof out !== 'object' || out === null) return { config, unresolved };
  for (const slot of PIPELINE_SECRET_SLOTS) {
    const value = get(out, slot.path);
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      set(out, slot.path, null);
    } else if (isMasked(value)) {
      const stored = get(prev, slot.path);
      const plain =
        slot.owner(out, engines.engine) === slot.owner(prev, engines.previousEngine ?? engines.engine) ? revealValue(codec, stored) : null;
      if (plain === null) unresolved.push(slot.ref);
      set(out, slot.path, plain === null ? null : typeof stored === 'string' && ENCRYPTED.test(stored) ? stored : codec.encrypt(plain));
    } else {
      set(out, slot.path, codec.encrypt(value));
    }
  }
  return { config: out as unknown as T, unresolved };
}

/** The pipeline as answered: every stored secret masked ('••••abcd'). */
export function maskSecrets<T>(codec: SecretCodec, config: T): T {
  const out = copy(config) as unknown as Loose;
  if (typeof out !== 'object' || out === null) return config;
  for (const slot of PIPELINE_SECRET_SLOTS) {
    const value = get(out, slot.path);
    if (value === undefined || value === null) continue;
    set(out, slot.path, mask(revealValue(codec, value)));
  }
  return out as unknown as T;
}

/** The pipeline with its secrets in clear, for the runtime that calls the providers. */
export function revealSecrets<T>(codec: SecretCodec, config: T): T {
  const out = copy(config) as unknown as Loose;
  if (typeof out !== 'object' || out === null) return config;
  for (const slot of PIPELINE_SECRET_SLOTS) {
    const value = get(out, slot.path);
    if (value === undefined || value === null) continue;
    set(out, slot.path, revealValue(codec, value));
  }
  return out as unknown as T;
}

/** One stored secret in clear, with what it belongs to. */
export function storedSecret(codec: SecretCodec, config: unknown, ref: SecretRef): { value: string; owner: string } | null {
  const slot = PIPELINE_SECRET_SLOTS.find((s) => s.ref === ref)!;
  const c = obj(config);
  const value = revealValue(codec, get(c, slot.path));
  return value ? { value, owner: slot.owner(c) } : null;
}
