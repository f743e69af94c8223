// What the runtime needs to know about an avatar to run a conversation with it: resolved from
// the saved avatar (runtime/avatar-config.ts) after the access check.
import type { AvatarSettings } from './avatar-settings';
import type { EngineConfig } from './types';

export interface AvatarLimits {
  /** Seconds of conversation per day per end-user session; -1 unlimited. Exhausted → echo. */
  dailyLimitPerSession: number;
  /** Seconds per day per IP address; -1 unlimited. Exhausted → echo. */
  dailyLimitPerIP: number;
  /** Seconds of demo per day per IP address; -1 unlimited. Exhausted → disconnect. */
  demo: number;
  /** Seconds without a user message after which the conversation ends. */
  idleTimeout: number;
}

export interface ResolvedAvatar {
  id: string;
  ownerId: string;
  name: string;
  /** The avatar type (dhType), recorded with the conversation. */
  type: string;
  /** The brain's display name (AVATAR_ENGINE_NAMES). */
  engineName: string;
  engine: EngineConfig;
  limits: AvatarLimits;
  /** Knowledge collections searched before each answer (LLM engines). */
  retrieval: { collectionIds: string[]; topK: number; threshold?: number } | null;
  /** Origins that may open conversations; null = any (embeds on customers' sites). */
  allowedOrigins: string[] | null;
  /** Whether the avatar sends the conversation so far to its brain. */
  sendHistory: boolean;
  /** The owner's OAuth config the end user signs in with first (oauthEnabled), or null. */
  oauthAppId: number | null;
  /** Issue 13's settings (runtime/avatar-settings.ts); absent = none of them acts. */
  settings?: AvatarSettings;
  /** The end user's id vouched for by a signed access token (claim userId); memory is keyed by it. */
  verifiedUserId?: string | null;
}

export interface AccessRequest {
  avatarId: string;
  token: string | null;
  /** The whole query of the upgrade (OAuth code, state, ...). */
  query: Record<string, string>;
  origin: string | null;
  ip: string;
}

export const DEFAULT_LIMITS: AvatarLimits = { dailyLimitPerSession: -1, dailyLimitPerIP: -1, demo: -1, idleTimeout: 300 };
