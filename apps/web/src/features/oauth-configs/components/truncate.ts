import { OAUTH_VALUE_TRUNCATE } from '@parla/shared/limits';

/** Long client values show their first 30 characters and an ellipsis (spec 1 §2, §9). */
export function truncate(value: string, max = OAUTH_VALUE_TRUNCATE): string {
  return value.length > max ? `${value.slice(0, max)}...` : value;
}
