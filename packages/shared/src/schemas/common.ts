import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits';

/** Spec 4 §5: an email pattern whose top-level domain has 2 to 4 letters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,4}$/;

export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;

export const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is Invalid')
  .regex(EMAIL_PATTERN, 'Email is Invalid');

/** Sign-in only needs a password to be present; its rules apply when one is chosen. */
export const passwordPresent = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG);

export const newPasswordField = passwordPresent.min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT);

/** Opaque ids are UUIDs; anything else cannot name a row, so it is a plain "not found". */
export const idField = z.string({ error: 'Id is required' }).trim().min(1, 'Id is required').max(100, 'Id is invalid');

/** Optional free text: trimmed, empty becomes undefined. */
export function optionalText(max: number, message: string) {
  return z
    .string({ error: message })
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => (v ? v : undefined));
}

export const okResponse = z.object({ status: z.literal('OK') });
