import { useMutation } from '@tanstack/react-query';
import type { SaveAvatarInput, SaveAvatarResponse, UploadField } from '@parla/shared/schemas/avatar';
import { apiRequest } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { cardOf } from '@parla/shared/schemas/avatar';
import type { AvatarPages } from './get-avatars';

export type AvatarUploads = Partial<Record<UploadField, Blob>>;

export interface SaveAvatarArgs {
  payload: SaveAvatarInput;
  uploads?: AvatarUploads;
}

/** Files may be 25 MB: an upload gets longer than the 10 s of an ordinary call. */
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

const FILE_NAMES: Record<UploadField, string> = {
  backgroundImage: 'background',
  scene: 'environment.glb',
  avatarPhoto: 'photo.jpg',
  avatarModel: 'avatar.glb',
};

/** One multipart request: the avatar as JSON in `json`, then its files (create and update). */
export function saveAvatar({ payload, uploads = {} }: SaveAvatarArgs): Promise<SaveAvatarResponse> {
  const form = new FormData();
  form.append('json', JSON.stringify(payload));
  for (const [field, blob] of Object.entries(uploads) as [UploadField, Blob | undefined][]) {
    if (blob) form.append(field, blob, blob instanceof File ? blob.name : FILE_NAMES[field]);
  }
  return apiRequest<SaveAvatarResponse>('/api/avatar_v2/add', { form, timeoutMs: UPLOAD_TIMEOUT_MS });
}

export function useSaveAvatar() {
  return useMutation({
    mutationFn: saveAvatar,
    onSuccess: async (res) => {
      // The saved card in place (or first, when new) until the list is read again.
      const card = cardOf(res.agent);
      queryClient.setQueriesData<AvatarPages>({ queryKey: ['avatars', 'list'] }, (old) => {
        if (!old) return old;
        const known = old.pages.some((p) => p.agents.some((a) => a.id === card.id));
        const pages = old.pages.map((p, i) => ({
          ...p,
          agents: known ? p.agents.map((a) => (a.id === card.id ? card : a)) : i === 0 ? [card, ...p.agents] : p.agents,
        }));
        return { ...old, pages };
      });
      await queryClient.invalidateQueries({ queryKey: ['avatars'] });
      // The account's plan usage counts avatars.
      await queryClient.invalidateQueries({ queryKey: ['account', 'info'] });
    },
  });
}
