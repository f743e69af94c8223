// The viseme atlas of the avatar's uploaded model (decision 127): the preview (the player, same
// origin) makes it the first time it draws the model with WebGL and posts it here; the editor
// uploads it with the customer's session, for the saved avatar whose model it is. Nothing is
// shown: a failed upload is logged, and the next preview of the model makes it again.
import { useEffect, type RefObject } from 'react';
import type { OwnModelAtlasManifest } from '@parla/shared/schemas/own-model-atlas';
import { logger } from '../../../../lib/logger';
import { useUploadOwnModelAtlas } from '../../api/upload-own-model-atlas';
import { useEditor } from './editor-context';

interface AtlasMessage {
  source: 'parla-player';
  event: 'ownModelAtlas';
  data: { modelURL: string; manifest: OwnModelAtlasManifest; atlas: Blob; still: Blob; ms: number };
}

function isAtlasMessage(d: unknown): d is AtlasMessage {
  const m = d as AtlasMessage | null;
  return m?.source === 'parla-player' && m.event === 'ownModelAtlas' && m.data?.atlas instanceof Blob && m.data.still instanceof Blob;
}

export function useOwnModelAtlas(frame: RefObject<HTMLIFrameElement | null>): void {
  const { saved, onStillMade } = useEditor();
  const upload = useUploadOwnModelAtlas();
  const { mutate } = upload;
  const avatarId = saved?.id;
  const modelURL = saved?.ownModel?.url;
  useEffect(() => {
    if (!avatarId || !modelURL) return;
    const onMessage = (e: MessageEvent) => {
      // Only our own preview, of the model this avatar wears now.
      if (e.origin !== window.location.origin || e.source !== frame.current?.contentWindow || !isAtlasMessage(e.data)) return;
      const { data } = e.data;
      if (data.modelURL !== modelURL) return;
      mutate(
        { avatarId, manifest: data.manifest, atlas: data.atlas, still: data.still },
        { onSuccess: (res) => onStillMade?.(res.stillURL), onError: (err) => logger.warn('the viseme atlas was not stored', err) },
      );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [avatarId, modelURL, frame, mutate, onStillMade]);
}
