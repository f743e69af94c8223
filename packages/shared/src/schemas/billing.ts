// The billing report (spec 1 §2, §3, §5, §7): GET /api/account_stats?startDate={ms}&endDate={ms}.
import { z } from 'zod';
import { BILLING_PAGE_MAX } from '../limits';

export const START_AFTER_END = 'Start date cannot be greater than end date.';

/** The latest instant a Date can hold is +275760-09-13; nothing sensible lies past year 9999. */
export const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function epochMs(label: string) {
  const invalid = `${label} must be a time in milliseconds since 1 January 1970 (UTC)`;
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .regex(/^\d{1,16}$/, invalid)
    .transform(Number)
    .refine((v) => v <= MAX_EPOCH_MS, invalid);
}

/** The range is half-open: startDate is included, endDate is not. */
export const accountStatsQuery = z
  .object({
    startDate: epochMs('Start date'),
    endDate: epochMs('End date'),
    /** Rows per answer (default BILLING_PAGE) and the first row's position, as the avatar list pages. */
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(BILLING_PAGE_MAX, `limit must be at most ${BILLING_PAGE_MAX}`)
      .optional(),
    offset: z.coerce
      .number({ error: 'offset must be a number' })
      .int('offset must be a whole number')
      .min(0, 'offset must be at least 0')
      .max(10_000_000, 'offset is too large')
      .optional(),
  })
  .refine((q) => q.startDate <= q.endDate, {
    message: START_AFTER_END,
    path: ['startDate'],
    // Compare only two valid dates; a malformed one already has its own message.
    when: (payload) => payload.issues.length === 0,
  });
export type AccountStatsQuery = z.infer<typeof accountStatsQuery>;

export interface BillingRow {
  avatarName: string;
  avatarId: string;
  /** Minutes, two decimals. */
  totalCallDuration: number;
  totalCallCount: number;
}

export interface AccountStatsResponse {
  /** One page of rows, by avatar name then id. */
  billingData: BillingRow[];
  /**
   * The spec's spelling. One total row with the same fields over the whole range: the exact minutes
   * of every conversation rounded once (the plan's minutes for the range), not the sum of the rounded
   * rows, and every call. There is no row count: knowing it would mean reading every avatar.
   */
  cummulativeData: BillingRow;
  /** The offset of the next page, or null on the last one. */
  nextOffset: number | null;
}
