// An avatar's knowledge gaps for its owner: the list (by how often asked), writing the missing
// answer as a text item of one of the avatar's collections (the next visitor's search finds
// it; the gap is resolved), and dismissing one. A foreign avatar or gap is "not found".
import {
  GAP_COLLECTION_NOT_LINKED,
  type GapAnswerRequest,
  type GapStatus,
  type KnowledgeGap,
  type KnowledgeGapsResponse,
} from '@parla/shared/schemas/insight';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { find as findAvatar, isAvatarId } from '../avatars/avatars.repository';
import { createItem, deleteItem } from '../knowledge/knowledge.service';
import { catchUp } from './knowledge-gaps.analyse';
import * as repo from './knowledge-gaps.repository';

const EXAMPLES = 5;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function ownAvatar(ctx: AppContext, ownerId: string, avatarId: string): Promise<void> {
  if (!isAvatarId(avatarId) || !(await findAvatar(ctx.db, ownerId, avatarId))) throw AppError.notFound('Avatar');
}

export async function listKnowledgeGaps(
  ctx: AppContext,
  ownerId: string,
  avatarId: string,
  q: { status: GapStatus; page: number; pageSize: number },
): Promise<KnowledgeGapsResponse> {
  await ownAvatar(ctx, ownerId, avatarId);
  await catchUp(ctx, ownerId, avatarId);
  const [rows, total, collections] = await Promise.all([
    repo.listGaps(ctx.db, ownerId, avatarId, q.status, q.pageSize, (q.page - 1) * q.pageSize),
    repo.countGaps(ctx.db, ownerId, avatarId, q.status),
    repo.linkedCollections(ctx.db, ownerId, avatarId),
  ]);
  const examples = await repo.examplesOf(
    ctx.db,
    ownerId,
    rows.map((r) => r.id),
    EXAMPLES,
  );
  const gaps: KnowledgeGap[] = rows.map((r) => ({
    id: r.id,
    status: r.status as GapStatus,
    question: r.question,
    asked: Number(r.asked),
    firstAt: iso(r.first_at)!,
    lastAt: iso(r.last_at)!,
    resolvedBy: (r.resolved_by as KnowledgeGap['resolvedBy']) ?? null,
    examples: examples.filter((e) => e.gap_id === r.id).map((e) => ({ text: e.text, at: iso(e.at)!, reason: e.reason })),
  }));
  return { status: 'OK', gaps, total, page: q.page, pageSize: q.pageSize, collections };
}

/** Writes the answer as a text item named after the question; the gap is resolved with it. */
export async function answerGap(ctx: AppContext, ownerId: string, avatarId: string, gapId: string, input: GapAnswerRequest) {
  await ownAvatar(ctx, ownerId, avatarId);
  const gap = await repo.findGap(ctx.db, ownerId, avatarId, gapId);
  if (!gap) throw AppError.notFound('Knowledge gap');
  const linked = await repo.linkedCollections(ctx.db, ownerId, avatarId);
  if (!linked.some((c) => c.id === input.collectionId)) throw AppError.invalid(GAP_COLLECTION_NOT_LINKED);
  const item = await createItem(ctx, ownerId, input.collectionId, {
    name: input.question,
    knowledge_type: { text: { content: input.answer } },
  });
  try {
    const done = await repo.setGapStatus(ctx.db, ownerId, avatarId, gapId, ['open', 'dismissed'], {
      status: 'resolved',
      resolvedBy: 'written',
      itemId: item.id,
      at: ctx.now(),
    });
    if (!done) throw AppError.notFound('Knowledge gap');
  } catch (err) {
    // All or nothing: the item goes when the gap could not be marked (another tab resolved it).
    await deleteItem(ctx, ownerId, item.id).catch(() => undefined);
    throw err;
  }
  return { status: 'OK' as const, itemId: item.id };
}

export async function dismissGap(ctx: AppContext, ownerId: string, avatarId: string, gapId: string) {
  await ownAvatar(ctx, ownerId, avatarId);
  if (!(await repo.setGapStatus(ctx.db, ownerId, avatarId, gapId, ['open'], { status: 'dismissed', at: ctx.now() })))
    throw AppError.notFound('Knowledge gap');
  return { status: 'OK' as const };
}
