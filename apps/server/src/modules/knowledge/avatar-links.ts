// Avatars (issue 4, the avatars module) refer to knowledge collections (customData.collection_ids),
// approved functions (functions: [id]) and an encryption key (encKeyId). When one of those is
// deleted here, it must disappear from the owner's avatars in the same transaction.
//
// The avatars table belongs to the avatars module, so the queries live there: it installs them
// once at start with setAvatarLinkCleaner(). Until it does (no avatars exist yet), there is
// nothing to unlink. Each delete below calls exactly one of the three functions.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

export interface AvatarLinkCleaner {
  /** Remove collectionId from customData.collection_ids of every avatar of ownerId. */
  collection(db: Q, ownerId: string, collectionId: string): Promise<void>;
  /** Remove functionId from the functions list of every avatar of ownerId. */
  func(db: Q, ownerId: string, functionId: string): Promise<void>;
  /** Clear encKeyId on every avatar of ownerId that uses keyId. */
  encryptionKey(db: Q, ownerId: string, keyId: string): Promise<void>;
}

let cleaner: AvatarLinkCleaner | null = null;

/** Called once by the avatars module when the server is built. */
export function setAvatarLinkCleaner(next: AvatarLinkCleaner | null): void {
  cleaner = next;
}

export async function unlinkCollectionFromAvatars(db: Q, ownerId: string, collectionId: string): Promise<void> {
  await cleaner?.collection(db, ownerId, collectionId);
}

export async function unlinkFunctionFromAvatars(db: Q, ownerId: string, functionId: string): Promise<void> {
  await cleaner?.func(db, ownerId, functionId);
}

export async function unlinkEncryptionKeyFromAvatars(db: Q, ownerId: string, keyId: string): Promise<void> {
  await cleaner?.encryptionKey(db, ownerId, keyId);
}
