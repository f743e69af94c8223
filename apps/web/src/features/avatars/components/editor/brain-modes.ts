// The enable rules of the Brain tab's sub-tabs (spec 2 §2). The modes and the engines each
// offers are in the shared provider table (@parla/shared/providers).
import { AvatarEngine } from '@parla/shared/enums';

/** Knowledge Base: the realtime or large-language-model engines only. */
export function knowledgeEnabled(engine: number | undefined): boolean {
  return engine === AvatarEngine.ParlaRealtime || engine === AvatarEngine.LargeLanguageModel;
}

/** Functions: as Knowledge Base, and the avatar has the realtime flag. */
export function functionsEnabled(engine: number | undefined, realtime: boolean | undefined): boolean {
  return knowledgeEnabled(engine) && Boolean(realtime);
}

/** The engines a mode offers, first one first (the shared provider table). */
export { enginesForMode as enginesFor } from '@parla/shared/providers';
