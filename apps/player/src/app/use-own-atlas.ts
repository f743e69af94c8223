// The editor's preview makes an uploaded model's viseme atlas when the avatar has none yet
// (decision 127): as the preview opens (right after the model's Save, or when the editor first
// shows a model uploaded before atlases existed), where WebGL works, renderOwnAtlas draws the
// model in every mouth shape in a canvas of its own, and the atlas, its manifest and the card's
// still go to the editor (the portal, same origin only), which uploads them with the customer's
// session. The preview need not be started (LET'S CHAT). A visitor's player never makes one:
// only the preview page inside the portal does.
import { useEffect } from 'react';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import { hasWebGL } from '../renderers/renderer';

export const OWN_ATLAS_EVENT = 'ownModelAtlas';

function inPortalPreview(avatar: PublicAvatar): boolean {
  return avatar.id === 'preview' && location.pathname === '/avatar/preview' && window.parent !== window;
}

/** After the page's first paint, so the preview shows at once. */
const START_AFTER_MS = 500;

export function useOwnAtlas(avatar: PublicAvatar): void {
  useEffect(() => {
    if (!avatar.appearance.rig || avatar.appearance.atlasURL || !inPortalPreview(avatar) || !hasWebGL()) return;
    let gone = false;
    const timer = window.setTimeout(() => void make(), START_AFTER_MS);
    const make = () =>
      import('../renderers/own-atlas')
        .then((m) => m.renderOwnAtlas(avatar))
        .then(({ manifest, atlas, still, ms }) => {
          if (gone) return;
          console.info(`viseme atlas of the uploaded model: ${Math.round(ms)} ms, ${atlas.size} bytes (still ${still.size} bytes)`);
          const data = { modelURL: avatar.appearance.modelURL, manifest, atlas, still, ms };
          // Only to the portal that embeds the preview (same origin), never to another page.
          window.parent.postMessage({ source: 'parla-player', event: OWN_ATLAS_EVENT, data }, location.origin);
        })
        .catch((err: unknown) => console.warn('viseme atlas of the uploaded model failed', err));
    return () => {
      gone = true;
      window.clearTimeout(timer);
    };
  }, [avatar]);
}
