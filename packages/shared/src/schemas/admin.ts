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
