// The knowledge area's section of GET /api/account_info: the customer's own website, which the
// Add Knowledge URL rows start with (spec 4 §5 "prefilled with {host}", read as the customer's
// site, issue 17): the first Allowed website of their most recently changed avatar that lists
// one, or null. Never the portal's own address, which the server refuses as private.
import { normaliseOrigin } from '@parla/shared/schemas/allowed-origins';
import type { AppContext } from '../../context';
import { latestAllowedOrigins } from '../avatars/avatars.repository';

export async function knowledgeSection(ctx: AppContext, ownerId: string): Promise<{ ownWebsite: string | null }> {
  const first = (await latestAllowedOrigins(ctx.db, ownerId)).map((o) => normaliseOrigin(String(o))).find((o) => o !== null);
  return { ownWebsite: first ? `${first}/` : null };
}
