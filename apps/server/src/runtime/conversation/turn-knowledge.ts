// The knowledge a turn is answered with: LLM engines with linked collections search them for the
// user's message (not while the avatar only echoes); a failed search answers with no context and
// says it did not search, so the engine does not take "nothing relevant" for an answer.
import { performance } from 'node:perf_hooks';
import type { ResolvedAvatar } from '../avatar';
import type { RetrievedChunk } from '../types';
import type { Logger, Retriever } from './ports';

export type TurnAvatar = Pick<ResolvedAvatar, 'id' | 'ownerId' | 'retrieval' | 'settings'>;
type Retrieval = NonNullable<TurnAvatar['retrieval']>;

/** searched = the knowledge base answered (an empty context then means nothing was relevant). */
export type Retrieved = { context: RetrievedChunk[]; retrievalMs: number; searched: boolean };

export const NO_CONTEXT: Retrieved = { context: [], retrievalMs: 0, searched: false };

/** The search to run for this avatar's turns, or null when there is none. */
export function retrievalOf(avatar: TurnAvatar, echo: boolean): Retrieval | null {
  const r = avatar.retrieval;
  return r && !echo && r.collectionIds.length ? r : null;
}

export async function retrieve(
  avatar: TurnAvatar,
  r: Retrieval,
  text: string,
  services: { retriever: Retriever; log: Logger },
): Promise<Retrieved> {
  const r0 = performance.now();
  let context: RetrievedChunk[] = [];
  let searched = false;
  try {
    context = await services.retriever.retrieve(avatar.ownerId, r.collectionIds, text, r.topK, r.threshold);
    searched = true;
  } catch (err) {
    services.log.warn({ err: String(err) }, 'knowledge retrieval failed');
  }
  return { context, retrievalMs: performance.now() - r0, searched };
}
