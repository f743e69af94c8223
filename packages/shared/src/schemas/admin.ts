// The administrators' customer desk (beyond the spec: design/api.md "Administration").
import { z } from 'zod';
import { AccountStatus } from '../enums';
import type { SubscriptionType } from '../plans';
import { pageQuery } from './paging';

const userId = z.string({ error: 'User is required' }).trim().min(1, 'User is required').max(100, 'User is invalid');

/** A page of customers (decision 221): `search` (name or email, any case) sees every customer. */
export const customersQuery = pageQuery;
export type CustomersQuery = z.infer<typeof customersQuery>;

export const subscriptionDecisionRequest = z.object({
  userId,
  approve: z.boolean({ error: 'approve must be true or false' }),
});
export type SubscriptionDecisionRequest = z.infer<typeof subscriptionDecisionRequest>;

export const customerStatusRequest = z.object({
  userId,
  status: z.enum([AccountStatus.Active, AccountStatus.Suspended], { error: "status must be 'ACTIVE' or 'SUSPENDED'" }),
});
export type CustomerStatusRequest = z.infer<typeof customerStatusRequest>;

export interface CustomerRow {
  id: string;
  name: string;
  email: string;
  status: AccountStatus;
  emailVerified: boolean;
  subscriptionType: SubscriptionType;
  requestedSubType: SubscriptionType | null;
  requestedAt: string | null;
  created: string;
}

export interface CustomersResponse {
  customers: CustomerRow[];
  /** true when more customers match than this page holds (`nextOffset` is not null). */
  truncated: boolean;
  /** The next page's offset, null on the last page. */
  nextOffset: number | null;
}

/** Customers per page when the caller names no limit, requests first. */
export const CUSTOMERS_PAGE_LIMIT = 200;

export const NO_PENDING_REQUEST = 'This customer has no pending plan change.';

/** GET /api/admin/mail_status: the mail outbox's health (decision 012). `failing` is true while a
 *  queued mail has failed at least once, or a mail failed for good in the last 24 hours; the
 *  portal then shows `mailFailingMessage`. */
export interface MailStatusResponse {
  status: 'OK';
  mail: {
    /** Mails not sent yet (new ones and those waiting for another attempt). */
    waiting: number;
    /** Of those, how many failed at least once. */
    retrying: number;
    /** Mails given up on in the last 24 hours. */
    failed: number;
    lastError: string | null;
    failing: boolean;
  };
}

/** The administrator's line when mail delivery keeps failing. */
export function mailFailingMessage(mail: MailStatusResponse['mail']): string {
  const waiting = `${mail.waiting} mail${mail.waiting === 1 ? '' : 's'} waiting`;
  const failed = mail.failed ? `, ${mail.failed} not delivered in the last 24 hours` : '';
  return `Mail delivery is failing: ${waiting}${failed}; last error: ${mail.lastError ?? 'unknown'}`;
}
