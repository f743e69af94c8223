// Secrets in an avatar's columns: the REST API key, the Dialogflow JSON key, the billing
// authorization header. Stored encrypted, answered masked; a masked value sent back means
// "unchanged", an empty one means "remove". The pipeline's secrets: modules/brain/brain-secrets.ts.
import { isMasked, mask, type SecretBox } from '../../lib/secrets';
import { revealSecrets } from '../brain/brain-secrets';

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

/** The pipeline config with its secrets in clear, for the runtime that calls the providers
 *  (the pipeline's secrets are the brain module's: modules/brain/brain-secrets.ts). */
export function revealPipeline(box: SecretBox, stored: unknown): unknown {
  return revealSecrets(box, stored);
}
