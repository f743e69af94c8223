// Whether the plan has room for one more avatar, known before the customer picks and names one
// (issue 39: the limit used to appear only after CREATE AVATAR). The server enforces the same
// table (PLAN_LIMITS); this only says it early. Every finite limit is below one page of the list
// (AVATAR_LIST_PAGE), so an incomplete first page already means "more avatars than any limit".
import { AVATAR_LIST_PAGE } from '@parla/shared/limits';
import { PLAN_LIMITS, planName, type PlanName } from '@parla/shared/plans';

export interface PlanFull {
  plan: PlanName;
  limit: number;
}

export function planFull(subscriptionType: number | undefined, listed: number | undefined, complete: boolean): PlanFull | null {
  if (subscriptionType === undefined || listed === undefined) return null;
  const plan = planName(subscriptionType);
  const limit = PLAN_LIMITS[plan].avatars;
  if (limit === null || limit >= AVATAR_LIST_PAGE) return null;
  return !complete || listed >= limit ? { plan, limit } : null;
}

export function planFullText(full: PlanFull): string {
  const allowed = full.limit === 0 ? 'no avatars' : full.limit === 1 ? '1 avatar' : `${full.limit} avatars`;
  return `Your ${full.plan} plan allows ${allowed}, and you have reached it. Upgrade your plan on the account page to create more.`;
}
