// The rules of encryption keys: the key pair is made here (ECDSA P-256), the private key leaves
// once in the answer to its creation, only the public key is kept; every account has one
// default key (made when it first lists its keys) that cannot be deleted. Avatars protected by
// a key accept only access tokens signed with its private key: verifyAvatarAccessToken().
import { generateKeyPairSync } from 'node:crypto';
import {
  DEFAULT_ENC_KEY_ALIAS,
  DEFAULT_ENC_KEY_NAME,
  DEFAULT_KEY_NOT_DELETABLE,
  type AddEncKeyRequest,
  type AddEncKeyResponse,
  type EncKeySummary,
} from '@parla/shared/schemas/encryption-keys';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/tokens';
import { checkEs256, newAccessToken, type AccessTokenClaims } from './access-token';
import * as repo from './encryption-keys.repository';

export function generateKeyPair(): { publicKey: string; privateKey: string } {
  return generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

function summary(row: { id: string; name: string; public_key_pem: string; default_key: boolean; created_at: Date }): EncKeySummary {
  return { id: row.id, name: row.name, created: row.created_at.toISOString(), defaultKey: row.default_key, publicKey: row.public_key_pem };
}

/** Creates the account's default key once; calling it again (or concurrently) changes nothing. */
export async function ensureDefaultKey(ctx: AppContext, ownerId: string): Promise<void> {
  if (await repo.hasDefault(ctx.db, ownerId)) return;
  const pair = generateKeyPair();
  await repo.insertDefault(ctx.db, {
    id: newId(),
    owner_id: ownerId,
    name: DEFAULT_ENC_KEY_NAME,
    public_key_pem: pair.publicKey,
    private_key_enc: ctx.secrets.encrypt(pair.privateKey),
    created_at: ctx.now(),
  });
}

export async function listKeys(ctx: AppContext, ownerId: string): Promise<{ encKeys: EncKeySummary[] }> {
  await ensureDefaultKey(ctx, ownerId);
  return { encKeys: (await repo.list(ctx.db, ownerId)).map(summary) };
}

export async function addKey(ctx: AppContext, ownerId: string, input: AddEncKeyRequest): Promise<AddEncKeyResponse> {
  await ensureDefaultKey(ctx, ownerId);
  const pair = generateKeyPair();
  const row = {
    id: newId(),
    owner_id: ownerId,
    name: input.name,
    public_key_pem: pair.publicKey,
    private_key_enc: null,
    created_at: ctx.now(),
  };
  await repo.insert(ctx.db, row);
  return { status: 'OK', encKey: pair.privateKey, key: summary({ ...row, default_key: false }) };
}

export async function deleteKey(ctx: AppContext, ownerId: string, id: string): Promise<void> {
  const key = await repo.find(ctx.db, ownerId, id);
  if (!key) throw AppError.notFound('Encryption key');
  if (key.default_key) throw AppError.invalid(DEFAULT_KEY_NOT_DELETABLE, 'DEFAULT_KEY');
  // Avatars that used the key fall back to their 'Default' option: the link goes by cascade (0220).
  await repo.remove(ctx.db, ownerId, id);
}

/**
 * For the conversation runtime: checks an access token presented for an avatar of ownerId
 * whose encryption option is keyId. Valid means: signed with ES256 by that key's private key,
 * not expired, living at most one hour, and its jti never used before (it is used now).
 * Returns the claims (sub is the avatar id the token was made for; the caller compares it).
 * keyId may be DEFAULT_ENC_KEY_ALIAS ('Default'): the account's default key.
 * Any failure is AppError.invalidToken() (401, code InvalidToken), without saying which check.
 */
export async function verifyAvatarAccessToken(ctx: AppContext, ownerId: string, keyId: string, jwt: string): Promise<AccessTokenClaims> {
  if (keyId === DEFAULT_ENC_KEY_ALIAS) await ensureDefaultKey(ctx, ownerId);
  const key = keyId === DEFAULT_ENC_KEY_ALIAS ? await repo.findDefault(ctx.db, ownerId) : await repo.find(ctx.db, ownerId, keyId);
  if (!key || typeof jwt !== 'string' || jwt.length > 4096) throw AppError.invalidToken();
  const nowS = Math.floor(ctx.now().getTime() / 1000);
  const check = await checkEs256(jwt, key.public_key_pem, nowS);
  if (!check.ok) {
    ctx.log.info({ keyId: key.id, reason: check.reason }, 'access token refused');
    throw AppError.invalidToken();
  }
  const fresh = await repo.useTokenId(ctx.db, key.id, check.claims.jti, new Date(check.claims.exp * 1000 + 60_000));
  if (!fresh) {
    ctx.log.info({ keyId: key.id, reason: 'reused' }, 'access token refused');
    throw AppError.invalidToken();
  }
  // Old ids can go: a token past its expiry is refused before its id is looked at. One
  // indexed delete per conversation start is cheap.
  await repo.forgetExpiredTokenIds(ctx.db, ctx.now());
  return check.claims;
}

/** For the product's own previews of a protected avatar: a token signed with the account's
 *  default key (whose private half the server keeps for exactly this). */
export async function issueAvatarAccessToken(
  ctx: AppContext,
  ownerId: string,
  avatarId: string,
  ttlSeconds = 120,
): Promise<{ token: string; keyId: string }> {
  await ensureDefaultKey(ctx, ownerId);
  const key = await repo.findDefault(ctx.db, ownerId);
  if (!key?.private_key_enc) throw AppError.server();
  const nowS = Math.floor(ctx.now().getTime() / 1000);
  return { token: await newAccessToken(ctx.secrets.decrypt(key.private_key_enc), avatarId, nowS, ttlSeconds, key.id), keyId: key.id };
}
