// Subscription plans (spec 1 §3, §9) and the one table of plan limits the server enforces.

export const SubscriptionType = { NONE: 0, FREE: 1, PRO: 2, STARTER: 3, ENTERPRISE: 4 } as const;
export type SubscriptionType = (typeof SubscriptionType)[keyof typeof SubscriptionType];
export type PlanName = keyof typeof SubscriptionType;

export const PLAN_DISPLAY_ORDER: readonly PlanName[] = ['FREE', 'STARTER', 'PRO', 'ENTERPRISE'];
/** The plans a customer may ask for (NONE is no plan at all). */
export const REQUESTABLE_PLANS: readonly SubscriptionType[] = PLAN_DISPLAY_ORDER.map((name) => SubscriptionType[name]);

export const PLAN_PRICES: Record<PlanName, string> = {
  NONE: 'USD 0/month',
  FREE: 'USD 0/month',
  STARTER: 'USD 199/month',
  PRO: 'USD 399/month',
  ENTERPRISE: 'Flexible',
};

/** null = unlimited. Avatars an account may own; conversation minutes per calendar month. */
export const PLAN_LIMITS: Record<PlanName, { avatars: number | null; minutesPerMonth: number | null }> = {
  NONE: { avatars: 0, minutesPerMonth: 0 },
  FREE: { avatars: 2, minutesPerMonth: 30 },
  STARTER: { avatars: 5, minutesPerMonth: 500 },
  PRO: { avatars: 25, minutesPerMonth: 2000 },
  ENTERPRISE: { avatars: null, minutesPerMonth: null },
};

/** The limits of a plan given by its number (an unknown number has no allowance). */
export function planLimits(value: number): { avatars: number | null; minutesPerMonth: number | null } {
  return PLAN_LIMITS[planName(value)];
}

export function planName(value: number): PlanName {
  const found = (Object.keys(SubscriptionType) as PlanName[]).find((k) => SubscriptionType[k] === value);
  return found ?? 'NONE';
}

/** The display order defines "higher": a request is an upgrade when the target comes later. */
export function isUpgrade(current: PlanName, target: PlanName): boolean {
  return PLAN_DISPLAY_ORDER.indexOf(target) > PLAN_DISPLAY_ORDER.indexOf(current);
}

/** Plans that may ask for custom image avatars (spec 2 §6). */
export function allowsCustomImageAvatar(plan: PlanName): boolean {
  return plan === 'PRO' || plan === 'ENTERPRISE';
}
