// argon2id with OWASP's floor (m = 19 MiB, t = 2, p = 1).
import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

// algorithm 2 = Argon2id (the package's enum is a const enum, unusable under isolatedModules).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

let hashCount = 0;

export function hashPassword(password: string): Promise<string> {
  hashCount++;
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  hashCount++;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash of nothing anybody knows, verified when the email is unknown so that unknown emails
 *  and wrong passwords take the same time. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hash(randomBytes(16).toString('hex'), OPTIONS);
  return dummy;
}

/** How many hashes were computed in this process (the login flood test observes it). */
export function passwordHashCount(): number {
  return hashCount;
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
