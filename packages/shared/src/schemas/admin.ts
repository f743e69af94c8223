// The administrators' customer desk (beyond the spec: design/api.md "Administration").
import { z } from 'zod';
import { AccountStatus } from '../enums';
import type { SubscriptionType } from '../plans';

const userId = z.string({ error: 'User is required' }).trim().min(1, 'User is required').max(100, 'User is invalid');

export const customersQuery = z.object({
  search: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
});
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
  /** true when more customers match than the list holds (narrow the search). */
  truncated: boolean;
}

/** The desk lists at most this many customers per search, requests first. */
export const CUSTOMERS_PAGE_LIMIT = 200;

export const NO_PENDING_REQUEST = 'This customer has no pending plan change.';
