// A suspended account's live conversations end (docs/decisions/208-suspended-accounts-serve-nothing.md):
// at once in this process when the administrator suspends it, on every other server process as
// soon as the delivery reaches it (decision 630), and at the latest at its next check (a few
// seconds), since any process may hold some of them. The end user sees
// the error (code 6), then a bye, then the socket closes with 4006.
import { inactiveAmong } from '../modules/account/account.repository';
import type { Runtime } from './runtime';

/** How often a process looks for live conversations of suspended accounts. */
export const SUSPENSION_CHECK_MS = 5_000;

/** Ends the owner's conversations held by this process; how many there were. */
export function endOwnerConversations(runtime: Runtime, ownerId: string): Promise<number> {
  return runtime.endOwner(ownerId);
}

/** Ends the live conversations of every suspended owner among this process's conversations
 *  (one query, none when nothing is live). */
export async function endSuspendedOwners(runtime: Runtime): Promise<number> {
  const owners = [...new Set(runtime.list().map((c) => c.ownerId))];
  if (!owners.length) return 0;
  let ended = 0;
  for (const id of await inactiveAmong(runtime.ctx.db, owners)) ended += await endOwnerConversations(runtime, id);
  return ended;
}

/** Starts the periodic check; returns its stop. */
export function watchSuspensions(runtime: Runtime): () => void {
  const timer = setInterval(() => {
    endSuspendedOwners(runtime).catch((err: unknown) => runtime.ctx.log.warn({ err: String(err) }, 'checking suspended accounts failed'));
  }, SUSPENSION_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
