// One provider's voice list: the request to make and how to read its answer (null: not the
// provider's shape). Paged lists say how to ask for the next page.
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import type { VoiceEntry } from '@parla/shared/providers';

export interface VoiceSource<K> {
  request(catalogue: BrainCatalogue, keys: K, page?: string): { url: string; headers: Record<string, string> };
  parse(data: unknown): VoiceEntry[] | null;
  /** The cursor of the next page, if the answer has one. */
  next?(data: unknown): string | undefined;
}
