// Plan usage against the one table of plan limits (@parla/shared/plans). The account screen
// shows it; the avatar area (avatar limit) and the runtime (monthly minutes) call these too.
import { planLimits, planName } from '@parla/shared/plans';
import type { PlanUsage } from '@parla/shared/schemas/account';
import type { AppContext } from '../../context';
import { minutesUsed } from './billing.repository';
import { countByOwner as countAvatars } from '../avatars/avatars.repository';

const MINUTE_MS = 60_000;

/** The calendar month (UTC) holding `now`: [first instant, first instant of the next month). */
export function monthOf(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Minutes rounded to two decimals, as the billing report and the usage show them. */
export function toMinutes(ms: number): number {
  return Math.round((ms / MINUTE_MS) * 100) / 100;
}

/**
 * Exact minutes rounded once to two decimals: the plan's minutes used and the billing report's
 * total row (decision 500), so both show the same figure for the same range.
 */
export function roundMinutes(minutes: number): number {
  return Math.round(minutes * 100) / 100;
}

/** Conversation minutes of this calendar month, unrounded. */
export async function minutesUsedThisMonth(ctx: AppContext, ownerId: string): Promise<number> {
  const { start, end } = monthOf(ctx.now());
  return minutesUsed(ctx.db, ownerId, start, end);
}

export async function planUsage(ctx: AppContext, owner: { id: string; subscription_type: number }): Promise<PlanUsage> {
  const limits = planLimits(owner.subscription_type);
  const { start, end } = monthOf(ctx.now());
  const [avatars, minutes] = [await countAvatars(ctx.db, owner.id), await minutesUsedThisMonth(ctx, owner.id)];
  return {
    plan: planName(owner.subscription_type),
    avatars: { used: avatars, limit: limits.avatars },
    minutes: {
      used: roundMinutes(minutes),
      limit: limits.minutesPerMonth,
      periodStart: start.toISOString(),
      periodEnd: end.toISOString(),
    },
  };
}
