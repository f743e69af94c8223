// The player's configuration, from the least to the most specific: built-in defaults, the
// avatar's saved embed defaults, its client JSON, then the page's URL parameters (spec 2: URL
// parameters override). Invalid values are ignored rather than breaking the page.
import {
  DEFAULT_CLIENT_JSON,
  PLAYER_EVENTS,
  readEmbedParams,
  type EmbedParams,
  type PlayerEventName,
  type QueryLike,
} from '@parla/shared/embed-params';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import { readRenderMode, type RenderMode } from '../renderers/frame-budget';

export interface PlayerConfig extends EmbedParams {
  letsChatButtonText: string;
  dialPageTitle: string;
  chatInputPlaceholder: string;
  forwardEvents: PlayerEventName[];
  /** Captions (avatar JSON Subtitle.Enabled, unless hideCaptions). */
  captions: boolean;
  /** The dial page's colour when the avatar JSON panel is enabled. */
  panelColor: string | null;
  /** How a 3D face draws: `render=full` or `render=light` in the page's URL, else auto. */
  render: RenderMode;
}

const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined);

export function resolveConfig(avatar: Pick<PublicAvatar, 'clientJson' | 'avatarJson' | 'embedDefaults'>, query: QueryLike): PlayerConfig {
  const client = (avatar.clientJson ?? {}) as Record<string, unknown>;
  const embed: EmbedParams = {
    ...DEFAULT_CLIENT_JSON,
    ...readEmbedParams((avatar.embedDefaults ?? {}) as Record<string, unknown>),
    ...readEmbedParams(client),
    ...readEmbedParams(query),
  };
  const forward = Array.isArray(client.forwardEvents)
    ? client.forwardEvents.filter((e): e is PlayerEventName => (PLAYER_EVENTS as readonly string[]).includes(e as string))
    : DEFAULT_CLIENT_JSON.forwardEvents;
  const aj = avatar.avatarJson ?? {};
  const panel = aj.panel;
  return {
    ...embed,
    letsChatButtonText: text(client.letsChatButtonText, 40) ?? DEFAULT_CLIENT_JSON.letsChatButtonText,
    dialPageTitle: text(client.dialPageTitle, 200) ?? '',
    chatInputPlaceholder: text(client.chatInputPlaceholder, 100) ?? DEFAULT_CLIENT_JSON.chatInputPlaceholder,
    forwardEvents: forward,
    captions: aj.Subtitle?.Enabled !== false && !embed.hideCaptions,
    render: readRenderMode(query.get('render')),
    panelColor:
      panel && panel.Enable !== false && typeof panel.BgColor === 'string' && /^#[0-9a-f]{3,8}$/i.test(panel.BgColor)
        ? panel.BgColor
        : null,
  };
}

/** `"W:H"` → a CSS aspect-ratio value, or null. */
export function aspectRatio(value: string | undefined): string | null {
  if (!value) return null;
  const [w, h] = value.split(':').map(Number);
  return w && h ? `${w} / ${h}` : null;
}
