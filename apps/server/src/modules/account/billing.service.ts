// The billing report (spec 1 §2, §3): conversation time per avatar in a date range, a page at a
// time (issue 37), by avatar name. Rows are rounded to two decimals first and the total row sums
// the rounded rows of every page, so the table adds up as a reader checks it
// (docs/decisions/500-billing-arithmetic.md); the figures come from hourly rollups (migration 0680).
import { BILLING_PAGE } from '@parla/shared/limits';
import type { AccountStatsQuery, AccountStatsResponse, BillingRow } from '@parla/shared/schemas/billing';
import type { AppContext } from '../../context';
import { usagePage } from './billing.repository';

export const TOTAL_ROW_NAME = 'Total';

export async function accountStats(ctx: AppContext, ownerId: string, q: AccountStatsQuery): Promise<AccountStatsResponse> {
  const limit = q.limit ?? BILLING_PAGE;
  const offset = q.offset ?? 0;
  const page = await usagePage(ctx.db, ownerId, new Date(q.startDate), new Date(q.endDate), limit, offset);
  const billingData = page.rows;
  const cummulativeData: BillingRow = {
    avatarName: TOTAL_ROW_NAME,
    avatarId: '',
    totalCallDuration: page.totalMinutes,
    totalCallCount: page.totalCalls,
  };
  const next = offset + billingData.length;
  return { billingData, cummulativeData, total: page.total, nextOffset: next < page.total && billingData.length > 0 ? next : null };
}
