// The rules of the account screen: account info, and asking for a plan change.
import { UserType } from '@parla/shared/enums';
import { planName } from '@parla/shared/plans';
import {
  ADMIN_HAS_NO_PLAN,
  NO_PLAN_REQUEST,
  PLAN_ALREADY_CURRENT,
  PLAN_REQUEST_PENDING,
  type AccountDetails,
  type AccountUpgradeRequest,
} from '@parla/shared/schemas/account';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/tokens';
import type { SessionUser } from '../../plugins/auth';
import { audit } from '../auth/auth.repository';
import { ACCOUNT_SECTIONS } from './account.sections';
import { planCancelMail, planRequestMail } from './account.mail';
import * as repo from './account.repository';

export async function accountInfo(ctx: AppContext, user: SessionUser): Promise<{ accountDetails: AccountDetails }> {
  const account = await repo.findAccount(ctx.db, user.id);
  if (!account) throw AppError.unauthenticated();
  const parts = [];
  for (const section of ACCOUNT_SECTIONS) parts.push(await section(ctx, account));
  return { accountDetails: Object.assign({}, ...parts) as AccountDetails };
}

/** Stores the request (one pending at a time) and tells every administrator. */
export async function requestPlanChange(
  ctx: AppContext,
  user: SessionUser,
  input: AccountUpgradeRequest & { dhType: number },
): Promise<void> {
  // An administrator has no plan of their own (the Account page offers no change to them); an
  // administrator signed in as a customer acts as that customer.
  if (user.type === UserType.Admin && !user.impersonatorId) throw AppError.forbidden(ADMIN_HAS_NO_PLAN);
  const now = ctx.now();
  // The administrators' mails are queued in the request's own transaction: stored together or not
  // at all, and sent by the outbox's sender after the answer (decision 012).
  await ctx.db.transaction().execute(async (trx) => {
    const found = await repo.findAccount(trx, user.id);
    if (!found) throw AppError.unauthenticated();
    if (found.subscription_type === input.subType) throw AppError.invalid(PLAN_ALREADY_CURRENT, 'SAME_PLAN');
    if (!(await repo.markPlanRequested(trx, user.id, input.subType, now))) throw AppError.invalid(PLAN_REQUEST_PENDING, 'REQUEST_PENDING');
    await repo.insertPlanRequest(trx, {
      id: newId(),
      user_id: user.id,
      from_sub_type: found.subscription_type,
      requested_sub_type: input.subType,
      dh_type: input.dhType,
      requested_at: now,
    });
    await audit(trx, {
      actor_id: user.impersonatorId ?? user.id,
      action: 'plan.request',
      target: user.id,
      detail: { from: planName(found.subscription_type), to: planName(input.subType) },
    });
    const desk = `${ctx.config.PUBLIC_URL}/react/customers`;
    const customer = { name: `${found.first_name} ${found.last_name}`.trim(), email: found.email };
    for (const to of await repo.activeAdminEmails(trx)) {
      if (user.type === UserType.Admin && to === found.email) continue;
      await ctx.mailer.queue(trx, planRequestMail(to, customer, found.subscription_type, input.subType, desk));
    }
  });
  ctx.mailer.wake();
}

/** Withdraws the customer's own pending request (kept as CANCELLED) and tells the administrators. */
export async function cancelPlanRequest(ctx: AppContext, user: SessionUser): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const found = await repo.findAccount(trx, user.id);
    if (!found) throw AppError.unauthenticated();
    const pending = await repo.pendingPlanRequest(trx, user.id);
    if (!pending || !(await repo.unmarkPlanRequested(trx, user.id, now))) throw AppError.invalid(NO_PLAN_REQUEST, 'NO_PENDING_REQUEST');
    const decided = await repo.decidePlanRequest(trx, pending.id, 'CANCELLED', user.id, now);
    if (Number(decided.numUpdatedRows) !== 1) throw AppError.invalid(NO_PLAN_REQUEST, 'NO_PENDING_REQUEST');
    await audit(trx, {
      actor_id: user.impersonatorId ?? user.id,
      action: 'plan.cancel',
      target: user.id,
      detail: { to: planName(pending.requested_sub_type) },
    });
    const desk = `${ctx.config.PUBLIC_URL}/react/customers`;
    const customer = { name: `${found.first_name} ${found.last_name}`.trim(), email: found.email };
    for (const to of await repo.activeAdminEmails(trx)) {
      await ctx.mailer.queue(trx, planCancelMail(to, customer, pending.requested_sub_type, desk));
    }
  });
  ctx.mailer.wake();
}
