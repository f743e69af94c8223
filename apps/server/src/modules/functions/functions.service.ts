// The rules of functions (spec 4 §3, §4): a function is Pending until an administrator approves
// it; the approval is bound to the SHA-256 of the code, so any change of the code returns it to
// Pending; only approved functions whose code is the approved code may be linked or used.
// Nothing here (or anywhere in this module) executes a function's code.
import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import { ErrorCode } from '@parla/shared/errors';
import { ALREADY_APPROVED_MESSAGE } from '@parla/shared/schemas/functions';
import { paged, pageOf, type PageQuery } from '@parla/shared/schemas/paging';
import type {
  FunctionAuditEntry,
  FunctionDecisionRequest,
  FunctionRecord,
  ReviewFunctionRecord,
  SaveFunctionsRequest,
} from '@parla/shared/schemas/functions';
import type { AppContext } from '../../context';
import type { FunctionsTable } from '../../db/tables/functions';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/tokens';
import type { SessionUser } from '../../plugins/auth';
import { serverTemplates } from './functions.templates';
import * as repo from './functions.repository';

type Row = Selectable<FunctionsTable>;

export const CODE_CHANGED_SINCE_REVIEW = 'The code of this function has changed since you opened it. Reload to review the new code.';

export function codeHash(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** Whether a stored function may be linked to avatars and run (by the runtime, elsewhere). */
export function isUsable(row: { approval_status: string; approved_code_sha256: string | null; code: string }): boolean {
  return row.approval_status === 'Approved' && row.approved_code_sha256 === codeHash(row.code);
}

function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}

function toRecord(row: Row): FunctionRecord {
  // An approval of other code (should never be stored, but never trusted) shows as Pending.
  const status = row.approval_status === 'Approved' && !isUsable(row) ? 'Pending' : row.approval_status;
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    language: 'python',
    approvalStatus: status,
    template: false,
    createDate: row.created_at.toISOString(),
    lastUpdateDate: row.updated_at.toISOString(),
    lastAdminUpdateDate: iso(row.admin_updated_at),
    reviewReason: row.review_reason,
    codeHash: row.code_sha256,
  };
}

/** A page of the owner's functions, newest first; the server's templates come with the first
 *  page (decision 221). */
export async function listFunctions(
  ctx: AppContext,
  ownerId: string,
  query: PageQuery = {},
): Promise<{ functions: FunctionRecord[]; nextOffset: number | null }> {
  const page = pageOf(query);
  const { rows, nextOffset } = paged(await repo.listPageByOwner(ctx.db, ownerId, page, query.search || undefined), page);
  const own = rows.map((r) => toRecord(r));
  return { functions: page.offset === 0 ? [...own, ...serverTemplates()] : own, nextOffset };
}

/** Spec 3 §7 (the Brain tab): approved functions, newest first. */
export async function listApprovedFunctions(ctx: AppContext, ownerId: string): Promise<{ functions: FunctionRecord[] }> {
  const rows = await repo.listByOwner(ctx.db, ownerId);
  return { functions: rows.filter(isUsable).map((r) => toRecord(r)) };
}

/** For avatars and the runtime: the owner's functions among ids that are approved as they are. */
export async function findApprovedFunctions(ctx: AppContext, ownerId: string, ids: string[]): Promise<FunctionRecord[]> {
  const rows = await repo.findManyByOwner(ctx.db, ownerId, ids);
  return rows.filter(isUsable).map((r) => toRecord(r));
}

export async function saveFunctions(
  ctx: AppContext,
  user: SessionUser,
  input: SaveFunctionsRequest,
): Promise<{ status: 'OK'; functions: FunctionRecord[] }> {
  const ownerId = user.id;
  await ctx.db.transaction().execute(async (trx) => {
    for (const fn of input.functions) {
      const now = ctx.now();
      if (fn.action === 'new') {
        const id = newId();
        const hash = codeHash(fn.code);
        await repo.insert(trx, {
          id,
          owner_id: ownerId,
          name: fn.name,
          code: fn.code,
          code_sha256: hash,
          created_at: now,
          updated_at: now,
        });
        await repo.audit(trx, { actor_id: user.id, action: 'function.submitted', functionId: id, detail: { codeHash: hash } });
        continue;
      }
      const existing = await repo.find(trx, ownerId, fn.id);
      if (!existing) throw AppError.notFound('Function');
      if (fn.action === 'delete') {
        await repo.remove(trx, ownerId, fn.id);
        await repo.audit(trx, {
          actor_id: user.id,
          action: 'function.deleted',
          functionId: fn.id,
          detail: { codeHash: existing.code_sha256 },
        });
        continue;
      }
      const hash = codeHash(fn.code);
      const codeChanged = hash !== existing.code_sha256;
      await repo.update(trx, ownerId, fn.id, {
        name: fn.name,
        code: fn.code,
        code_sha256: hash,
        updated_at: now,
        // Any other code needs its own review (decision 401).
        ...(codeChanged ? { approval_status: 'Pending' as const, review_reason: null } : {}),
      });
      if (codeChanged) {
        await repo.audit(trx, {
          actor_id: user.id,
          action: 'function.resubmitted',
          functionId: fn.id,
          detail: { codeHash: hash, previousStatus: existing.approval_status },
        });
      }
    }
  });
  return { status: 'OK', ...(await listFunctions(ctx, ownerId)) };
}

// --- Administrators ---------------------------------------------------------------------------

export async function listForReview(
  ctx: AppContext,
  query: PageQuery = {},
): Promise<{ functions: ReviewFunctionRecord[]; nextOffset: number | null }> {
  const page = pageOf(query);
  const { rows, nextOffset } = paged(await repo.listForReview(ctx.db, page, query.search || undefined), page);
  return {
    nextOffset,
    functions: rows.map((r) => ({
      ...toRecord(r),
      ownerId: r.owner_id,
      ownerEmail: r.owner_email,
      ownerName: `${r.owner_first} ${r.owner_last}`.trim(),
    })),
  };
}

export async function decide(ctx: AppContext, admin: SessionUser, input: FunctionDecisionRequest): Promise<{ status: 'OK' }> {
  const fn = await repo.findForReview(ctx.db, input.id);
  if (!fn) throw AppError.notFound('Function');
  const reviewed = input.codeHash ?? fn.code_sha256;
  const stale = () => new AppError(ErrorCode.StaleRequest, 409, [CODE_CHANGED_SINCE_REVIEW], { failReason: 'STALE_REQUEST' });
  if (reviewed !== fn.code_sha256) throw stale();
  if (input.approve && isUsable(fn))
    throw new AppError(ErrorCode.InvalidOrMissingParams, 409, [ALREADY_APPROVED_MESSAGE], { failReason: 'ALREADY_APPROVED' });
  await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.now();
    const res = await repo.decide(trx, fn.id, reviewed, {
      approval_status: input.approve ? 'Approved' : 'Rejected',
      approved_code_sha256: input.approve ? reviewed : null,
      review_reason: input.reason ?? null,
      reviewed_by: admin.id,
      admin_updated_at: now,
    });
    if (Number(res.numUpdatedRows) === 0) throw stale();
    await repo.audit(trx, {
      actor_id: admin.id,
      action: input.approve ? 'function.approved' : 'function.rejected',
      functionId: fn.id,
      detail: { codeHash: reviewed, reason: input.reason ?? null, ownerId: fn.owner_id },
    });
  });
  return { status: 'OK' };
}

export async function reviewHistory(ctx: AppContext, id: string): Promise<{ history: FunctionAuditEntry[] }> {
  const rows = await repo.history(ctx.db, id);
  return {
    history: rows.map((r) => {
      const detail = (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as {
        reason?: string | null;
        codeHash?: string;
      } | null;
      return {
        id: Number(r.id),
        action: r.action,
        actorEmail: r.actor_email ?? null,
        reason: detail?.reason ?? null,
        codeHash: detail?.codeHash ?? null,
        at: r.created_at.toISOString(),
      };
    }),
  };
}
