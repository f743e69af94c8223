// The brain's section of GET /api/account_info (spec 2 §7): provider and model lists, the
// Simple-mode models, Google's preferred languages, default voices, interruption and VAD
// options and the pipeline list — the provider table with this server's URL overrides.
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import type { AppContext } from '../../context';
import { brainCatalogue } from './brain.catalogue';

export function brainSection(ctx: AppContext): BrainCatalogue {
  return brainCatalogue(ctx.config);
}
