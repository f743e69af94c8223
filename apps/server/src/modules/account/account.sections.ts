// GET /api/account_info answers { accountDetails } assembled from sections. Each area owns its
// section (a function of the signed-in account returning some fields); adding one is one line
// in ACCOUNT_SECTIONS below.
import type { Selectable } from 'kysely';
import { AccountStatus, UserType } from '@parla/shared/enums';
import type { AccountDetails } from '@parla/shared/schemas/account';
import type { SubscriptionType } from '@parla/shared/plans';
import type { AppContext } from '../../context';
import type { UsersTable } from '../../db/tables/accounts';
import { planUsage } from './usage';
import { brainSection } from '../brain/brain.account-section';
import { knowledgeSection } from '../knowledge/knowledge.account-section';

export type AccountRow = Selectable<UsersTable>;
export type AccountSection = (ctx: AppContext, account: AccountRow) => Promise<object> | object;

const iso = (d: Date | string) => new Date(d).toISOString();

/** Spec 1 §3: Id, Name, Email, Status, 'Create Date', 'Last Updated', licenses, requestedSubType. */
export const accountSection: AccountSection = (_ctx, a) =>
  ({
    Id: a.id,
    Name: `${a.first_name} ${a.last_name}`.trim(),
    Email: a.email,
    Status: a.status === AccountStatus.Suspended ? AccountStatus.Suspended : AccountStatus.Active,
    'Create Date': iso(a.created_at),
    'Last Updated': iso(a.updated_at),
    userType: a.user_type === UserType.Admin ? UserType.Admin : UserType.Customer,
    licenses: { webgl: { subscriptionType: a.subscription_type as SubscriptionType } },
    requestedSubType: (a.requested_sub_type ?? null) as SubscriptionType | null,
    subscribedSince: iso(a.subscribed_since),
  }) satisfies Omit<AccountDetails, 'usage'>;

export const usageSection: AccountSection = async (ctx, a) => ({ usage: await planUsage(ctx, a) });

export const ACCOUNT_SECTIONS: AccountSection[] = [
  accountSection,
  usageSection,
  (ctx) => brainSection(ctx),
  (ctx, a) => knowledgeSection(ctx, a.id),
];
