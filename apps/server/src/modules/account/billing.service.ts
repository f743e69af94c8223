// The billing report (spec 1 §2, §3): conversation time per avatar in a date range. Rows are
// rounded to two decimals first and the total row sums the rounded rows, so the table adds up
// as a reader checks it (docs/decisions/500-billing-arithmetic.md).
import type { AccountStatsResponse, BillingRow } from '@parla/shared/schemas/billing';
import type { AppContext } from '../../context';
import { usageByAvatar } from '../conversations/conversations.repository';
import { toMinutes } from './usage';

export const TOTAL_ROW_NAME = 'Total';

export async function accountStats(ctx: AppContext, ownerId: string, startMs: number, endMs: number): Promise<AccountStatsResponse> {
  const usage = await usageByAvatar(ctx.db, ownerId, new Date(startMs), new Date(endMs));
  const billingData: BillingRow[] = usage
    .map((u) => ({ avatarName: u.avatarName, avatarId: u.avatarId, totalCallDuration: toMinutes(u.durationMs), totalCallCount: u.calls }))
    .sort((a, b) => a.avatarName.localeCompare(b.avatarName) || a.avatarId.localeCompare(b.avatarId));
  const cummulativeData: BillingRow = {
    avatarName: TOTAL_ROW_NAME,
    avatarId: '',
    totalCallDuration: Math.round(billingData.reduce((s, r) => s + r.totalCallDuration * 100, 0)) / 100,
    totalCallCount: billingData.reduce((s, r) => s + r.totalCallCount, 0),
  };
  return { billingData, cummulativeData };
}
