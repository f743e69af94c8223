// Secrets at rest: AES-256-GCM with a key derived from SECRET_KEY. Stored as
// "v1:{iv}:{tag}:{ciphertext}" (base64url). Answers show them masked; a masked value sent back
// means "unchanged".
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MASK_PREFIX = '••••';

export class SecretBox {
  private readonly key: Buffer;
  constructor(secretKey: string) {
    this.key = createHash('sha256').update(`parla:secrets:${secretKey}`).digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join(':');
  }

  decrypt(stored: string): string {
    const [v, iv, tag, ct] = stored.split(':');
    if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('Unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Derives a sub-key for another purpose (JWT signing, ...) from the same secret. */
  static derive(secretKey: string, purpose: string): Buffer {
    return createHash('sha256').update(`parla:${purpose}:${secretKey}`).digest();
  }
}

/** '••••abcd' for anything long enough; short secrets show no characters at all. */
export function mask(plain: string | null | undefined): string {
  if (!plain) return '';
  return plain.length >= 12 ? `${MASK_PREFIX}${plain.slice(-4)}` : MASK_PREFIX;
}

export function isMasked(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.startsWith(MASK_PREFIX);
}

/** SECRET_KEY from the environment, or one generated once into DATA_DIR (mode 0600). */
export function loadSecretKey(fromEnv: string | undefined, dataDir: string): string {
  if (fromEnv) return fromEnv;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}
