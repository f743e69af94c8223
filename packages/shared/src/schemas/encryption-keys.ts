// Encryption keys (spec 4 §2, §3, §7): ECDSA P-256 key pairs made on the server; the private key
// is shown once, only the public key is kept. Avatars using a key accept only access tokens
// signed with its private key (docs/api.md "Encryption keys").
import { z } from 'zod';
import { idField } from './common';

export const encKeyNameField = z
  .string({ error: 'Name is a required field.' })
  .trim()
  .min(1, 'Name is a required field.')
  .max(100, 'Name must be at most 100 characters.');

export const addEncKeyRequest = z.object({
  /** The spec sends {id, name}; the id of a new key is always chosen by the server. */
  id: z.string().max(100).nullable().optional(),
  name: encKeyNameField,
});
export type AddEncKeyRequest = z.infer<typeof addEncKeyRequest>;

export const encKeyForm = z.object({ name: encKeyNameField });
export type EncKeyForm = z.infer<typeof encKeyForm>;

export const delEncKeyRequest = z.object({
  id: idField,
  mode: z.literal('delete', { error: "mode must be 'delete'" }),
});

export const DEFAULT_ENC_KEY_NAME = 'Default Key';
/** An avatar's encKeyId may name the account's default key by this alias instead of its id. */
export const DEFAULT_ENC_KEY_ALIAS = 'Default';
export const DEFAULT_KEY_NOT_DELETABLE = 'The default encryption key cannot be deleted.';
/** Access tokens live at most this long (single use; see docs/api.md). */
export const ACCESS_TOKEN_MAX_TTL_S = 3600;

export interface EncKeySummary {
  id: string;
  name: string;
  created: string;
  defaultKey: boolean;
  /** The public key (PEM, SPKI): safe to show, needed by nobody but handy to check a pair. */
  publicKey: string;
}

export interface AddEncKeyResponse {
  status: 'OK';
  /** The private key (PEM, PKCS#8): shown this once, never stored. */
  encKey: string;
  key: EncKeySummary;
}
