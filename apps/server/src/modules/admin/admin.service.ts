// The administrators' customer desk: list customers, decide plan change requests, suspend or
// reactivate an account (suspension ends its sessions at once).
import { AccountStatus } from '@parla/shared/enums';
import { planName, type SubscriptionType } from '@parla/shared/plans';
import {
  CUSTOMERS_PAGE_LIMIT,
  NO_PENDING_REQUEST,
  type CustomerRow,
  type CustomersQuery,
  type CustomersResponse,
  type CustomerStatusRequest,
  type MailStatusResponse,
  type SubscriptionDecisionRequest,
} from '@parla/shared/schemas/admin';
import { paged, pageOf } from '@parla/shared/schemas/paging';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { deliveryHealth } from '../../lib/mail-outbox.repository';
import type { SessionUser } from '../../plugins/auth';
import { planDecisionMail } from '../account/account.mail';
import { decidePlanRequest, pendingPlanRequest } from '../account/account.repository';
import { audit, revokeUserSessions } from '../auth/auth.repository';
import * as repo from './admin.repository';

const iso = (d: Date | string) => new Date(d).toISOString();

export async function listCustomers(ctx: AppContext, query: CustomersQuery): Promise<CustomersResponse> {
  const page = pageOf({ limit: query.limit ?? CUSTOMERS_PAGE_LIMIT, offset: query.offset });
  const { rows, nextOffset } = paged(await repo.listCustomers(ctx.db, query.search || undefined, page), page);
  const customers: CustomerRow[] = rows.map((r) => ({
    id: r.id,
    name: `${r.first_name} ${r.last_name}`.trim(),
    email: r.email,
    status: r.status === AccountStatus.Suspended ? AccountStatus.Suspended : AccountStatus.Active,
    emailVerified: Boolean(r.email_verified_at),
    subscriptionType: r.subscription_type as SubscriptionType,
    requestedSubType: (r.requested_sub_type ?? null) as SubscriptionType | null,
    requestedAt: r.requested_at ? iso(r.requested_at) : null,
    created: iso(r.created_at),
  }));
  return { customers, truncated: nextOffset !== null, nextOffset };
}

export async function decideSubscription(ctx: AppContext, admin: SessionUser, input: SubscriptionDecisionRequest): Promise<void> {
  const now = ctx.now();
  // The customer's mail is queued in the decision's own transaction (decision 012).
  await ctx.db.transaction().execute(async (trx) => {
    const customer = await repo.findCustomer(trx, input.userId);
    if (!customer) throw AppError.notFound('Customer');
    const request = await pendingPlanRequest(trx, customer.id);
    if (!request || customer.requested_sub_type === null) throw AppError.invalid(NO_PENDING_REQUEST, 'NO_PENDING_REQUEST');
    const decided = await decidePlanRequest(trx, request.id, input.approve ? 'APPROVED' : 'DECLINED', admin.id, now);
    if (Number(decided.numUpdatedRows) !== 1) throw AppError.invalid(NO_PENDING_REQUEST, 'NO_PENDING_REQUEST');
    if (input.approve) await repo.applyPlan(trx, customer.id, request.requested_sub_type, now);
    else await repo.clearRequestedPlan(trx, customer.id, now);
    await audit(trx, {
      actor_id: admin.id,
      action: input.approve ? 'plan.approve' : 'plan.decline',
      target: customer.id,
      detail: { from: planName(customer.subscription_type), to: planName(request.requested_sub_type) },
    });
    const mail = planDecisionMail(
      customer.email,
      customer.first_name,
      input.approve,
      request.requested_sub_type,
      customer.subscription_type,
      `${ctx.config.PUBLIC_URL}/react/account`,
    );
    await ctx.mailer.queue(trx, mail);
  });
  ctx.mailer.wake();
}

export async function setCustomerStatus(ctx: AppContext, admin: SessionUser, input: CustomerStatusRequest): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const customer = await repo.findCustomer(trx, input.userId);
    if (!customer) throw AppError.notFound('Customer');
    if (customer.status === input.status) return;
    await repo.setStatus(trx, customer.id, input.status, now);
    // The auth plugin already refuses sessions of a suspended account; revoking them as well
    // means reactivation does not bring old sessions back.
    if (input.status === AccountStatus.Suspended) await revokeUserSessions(trx, customer.id, now);
    await audit(trx, {
      actor_id: admin.id,
      action: input.status === AccountStatus.Suspended ? 'account.suspend' : 'account.reactivate',
      target: customer.id,
    });
  });
  // Every process hears of it from the database (decision 017); this one drops its entries now.
  ctx.sessions.forgetUser(input.userId);
}

/** The mail outbox's health for the administrator (decision 012). */
export async function mailStatus(ctx: AppContext): Promise<MailStatusResponse> {
  const since = new Date(ctx.now().getTime() - 24 * 60 * 60 * 1000);
  const health = await deliveryHealth(ctx.db, since);
  return { status: 'OK', mail: { ...health, failing: health.retrying > 0 || health.failed > 0 } };
}
