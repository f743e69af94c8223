// The billing report (spec 1 §2, §3): conversation time per avatar in a date range, a page at a
// time (issue 37), by avatar name. Each row is rounded to two decimals; the total row is the exact
// total of the range rounded once, the figure the plan counts (docs/decisions/500-billing-arithmetic.md,
// amendment "the total row as the exact total"); the figures come from hourly rollups (migration 0680)
// and the total from the owner-level ones (0692), so the answer costs about a page, not every avatar.
import { BILLING_PAGE } from '@parla/shared/limits';
import type { AccountStatsQuery, AccountStatsResponse, BillingRow } from '@parla/shared/schemas/billing';
import type { AppContext } from '../../context';
import { usagePage } from './billing.repository';
import { roundMinutes } from './usage';

export const TOTAL_ROW_NAME = 'Total';

export async function accountStats(ctx: AppContext, ownerId: string, q: AccountStatsQuery): Promise<AccountStatsResponse> {
  const limit = q.limit ?? BILLING_PAGE;
  const offset = q.offset ?? 0;
  const page = await usagePage(ctx.db, ownerId, new Date(q.startDate), new Date(q.endDate), limit, offset);
  const billingData = page.rows;
  const cummulativeData: BillingRow = {
    avatarName: TOTAL_ROW_NAME,
    avatarId: '',
    totalCallDuration: roundMinutes(page.totalMinutes),
    totalCallCount: page.totalCalls,
  };
  return { billingData, cummulativeData, nextOffset: page.more ? offset + billingData.length : null };
}
