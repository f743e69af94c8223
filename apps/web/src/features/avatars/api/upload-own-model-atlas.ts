// POST /api/avatar/{id}/own_model_atlas (decision 127): the viseme atlas, its manifest and the
// card's still of the avatar's uploaded model, made by the editor's preview. The list is read
// again so the card shows the still.
import { useMutation } from '@tanstack/react-query';
import type { OwnModelAtlasManifest, OwnModelAtlasResponse } from '@parla/shared/schemas/own-model-atlas';
import { apiRequest } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';

export interface OwnModelAtlasUpload {
  avatarId: string;
  manifest: OwnModelAtlasManifest;
  atlas: Blob;
  still: Blob;
}

export function uploadOwnModelAtlas({ avatarId, manifest, atlas, still }: OwnModelAtlasUpload): Promise<OwnModelAtlasResponse> {
  const form = new FormData();
  form.append('manifest', JSON.stringify(manifest));
  form.append('atlas', atlas, 'atlas.webp');
  form.append('still', still, 'still.webp');
  return apiRequest<OwnModelAtlasResponse>(`/api/avatar/${encodeURIComponent(avatarId)}/own_model_atlas`, { form, timeoutMs: 60_000 });
}

export function useUploadOwnModelAtlas() {
  return useMutation({
    mutationFn: uploadOwnModelAtlas,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['avatars', 'list'] }),
  });
}
