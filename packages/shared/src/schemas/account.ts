// Account details (spec 1 §3, spec 2 §7), plan usage and the subscription request (spec 1 §4, §7).
import { z } from 'zod';
import type { AccountStatus, UserType } from '../enums';
import { REQUESTABLE_PLANS, type PlanName, type SubscriptionType } from '../plans';

/** Usage of the current plan against its limits; limit null = unlimited. */
export interface PlanUsage {
  plan: PlanName;
  avatars: { used: number; limit: number | null };
  /** Conversation minutes of the current calendar month (UTC). */
  minutes: { used: number; limit: number | null; periodStart: string; periodEnd: string };
}

/** The account part of GET /api/account_info. The field names with spaces are the spec's.
 *  Other areas add their sections (catalogue URLs, provider lists, encKeys, ...) as further
 *  optional fields of this interface. */
export interface AccountDetails {
  Id: string;
  Name: string;
  Email: string;
  Status: AccountStatus;
  'Create Date': string;
  'Last Updated': string;
  userType: UserType;
  licenses: { webgl: { subscriptionType: SubscriptionType } };
  /** The plan the customer asked for and an administrator has not decided yet. */
  requestedSubType: SubscriptionType | null;
  subscribedSince: string;
  usage: PlanUsage;
  /** The customer's own website, if one of their avatars lists an Allowed website: the Add
   *  Knowledge URL rows start with it (spec 4 §5 "{host}"). */
  ownWebsite?: string | null;
}

export interface AccountInfoResponse {
  accountDetails: AccountDetails;
}

export const PLAN_REQUIRED = 'Choose a subscription plan';
export const PLAN_INVALID = 'Choose one of the plans: FREE, STARTER, PRO or ENTERPRISE';

export const accountUpgradeRequest = z.object({
  subType: z
    .number({ error: PLAN_REQUIRED })
    .int(PLAN_INVALID)
    .refine((v) => (REQUESTABLE_PLANS as readonly number[]).includes(v), PLAN_INVALID),
  /** Kept from the original client (spec 1 §7: "dhType (default 2)"); stored with the request. */
  dhType: z
    .number({ error: 'dhType must be a number' })
    .int('dhType must be a whole number')
    .min(0, 'dhType is invalid')
    .max(99, 'dhType is invalid')
    .default(2),
});
export type AccountUpgradeRequest = z.input<typeof accountUpgradeRequest>;

/** Server answers to a request the rules refuse (the UI disables the button in these cases). */
export const PLAN_ALREADY_CURRENT = 'This is already your subscription plan.';
export const PLAN_REQUEST_PENDING = 'A plan change is already waiting for an administrator. You will receive an email when it is decided.';

/** POST /api/account_upgrade/cancel: withdraws the customer's own pending request (issue 17). */
export const cancelPlanRequest = z.strictObject({}, { error: 'This request takes no fields.' });
export const NO_PLAN_REQUEST = 'There is no plan change request to cancel.';
export const ADMIN_HAS_NO_PLAN = 'Administrators have no subscription plan to change.';
