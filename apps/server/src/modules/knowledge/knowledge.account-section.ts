// The knowledge area's section of GET /api/account_info: the customer's own website, which the
// Add Knowledge URL rows start with (spec 4 §5 "prefilled with {host}", read as the customer's
// site, issue 17): the first Allowed website of their most recently changed avatar that lists
// one, or null. Never the portal's own address, which the server refuses as private.
import { sql } from 'kysely';
import { normaliseOrigin } from '@parla/shared/schemas/allowed-origins';
import type { AppContext } from '../../context';

export async function knowledgeSection(ctx: AppContext, ownerId: string): Promise<{ ownWebsite: string | null }> {
  const row = await ctx.db
    .selectFrom('avatars')
    .select('allowed_origins')
    .where('owner_id', '=', ownerId)
    .where(sql<boolean>`jsonb_array_length(allowed_origins) > 0`)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const first = (Array.isArray(row?.allowed_origins) ? row.allowed_origins : []).map((o) => normaliseOrigin(String(o))).find((o) => o !== null);
  return { ownWebsite: first ? `${first}/` : null };
}
