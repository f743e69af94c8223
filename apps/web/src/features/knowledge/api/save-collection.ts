// Create (no id) or rename (with id) a collection.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionRequest, KnowledgeCollection } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

export function saveCollection(input: CollectionRequest & { id?: string }): Promise<KnowledgeCollection> {
  const { id, ...body } = input;
  return id
    ? kbRequest(`/kb/v1/collections/${encodeURIComponent(id)}`, { method: 'PUT', body })
    : kbRequest('/kb/v1/collections', { method: 'POST', body });
}

export function useSaveCollection(opts: { onSuccess?: (c: KnowledgeCollection) => void } = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveCollection,
    onSuccess: async (collection) => {
      await qc.invalidateQueries({ queryKey: ['knowledge', 'collections'] });
      opts.onSuccess?.(collection);
    },
  });
}
