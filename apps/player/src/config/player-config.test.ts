import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_JSON, readEmbedParams } from '@parla/shared/embed-params';
import { aspectRatio, resolveConfig } from './player-config';

const avatar = (
  clientJson: Record<string, unknown> = {},
  avatarJson: Record<string, unknown> = {},
  embedDefaults: Record<string, unknown> = {},
) => ({ clientJson, avatarJson, embedDefaults });

describe('player configuration', () => {
  it("starts from the default client JSON with its LET'S CHAT button", () => {
    const c = resolveConfig(avatar(), new URLSearchParams());
    expect(c.letsChatButtonText).toBe("LET'S CHAT");
    expect(c.controlButtonPosition).toBe('center');
    expect(c.hideChatInput).toBe(false);
    expect(c.captions).toBe(true);
    expect(c.forwardEvents).toEqual(DEFAULT_CLIENT_JSON.forwardEvents);
  });

  it('takes the client JSON, and URL parameters override it', () => {
    const client = { letsChatButtonText: 'TALK TO ME', hideChatHistory: true, controlButtonPosition: 'left', hideFS: true };
    const fromJson = resolveConfig(avatar(client), new URLSearchParams());
    expect(fromJson).toMatchObject({
      letsChatButtonText: 'TALK TO ME',
      hideChatHistory: true,
      controlButtonPosition: 'left',
      hideFS: true,
    });
    const url = resolveConfig(
      avatar(client),
      new URLSearchParams('hideChatHistory=false&controlButtonPosition=right&connect=true&screenAspectRatio=9:16'),
    );
    expect(url).toMatchObject({
      hideChatHistory: false,
      controlButtonPosition: 'right',
      connect: true,
      screenAspectRatio: '9:16',
      hideFS: true,
    });
  });

  it('applies saved embed defaults under the client JSON', () => {
    const c = resolveConfig(avatar({ micOff: false }, {}, { micOff: true, speakerOff: true }), new URLSearchParams());
    expect(c.micOff).toBe(false);
    expect(c.speakerOff).toBe(true);
  });

  it('ignores invalid parameters instead of failing', () => {
    const c = resolveConfig(
      avatar(),
      new URLSearchParams('controlButtonPosition=top&screenAspectRatio=wide&hideChatInput=maybe&dialPageBackground=red;background:url(x)'),
    );
    expect(c.controlButtonPosition).toBe('center');
    expect(c.screenAspectRatio).toBeUndefined();
    expect(c.hideChatInput).toBe(false);
    expect(c.dialPageBackground).toBeUndefined();
  });

  it('accepts colours and image URLs for the dial page background', () => {
    expect(readEmbedParams(new URLSearchParams('dialPageBackground=%23102030')).dialPageBackground).toBe('#102030');
    expect(readEmbedParams(new URLSearchParams('dialPageBackground=https://example.com/bg.jpg')).dialPageBackground).toBe(
      'https://example.com/bg.jpg',
    );
    expect(readEmbedParams(new URLSearchParams('dialPageBackground=javascript:alert(1)')).dialPageBackground).toBeUndefined();
  });

  it('turns captions off with the avatar JSON subtitle switch or hideCaptions', () => {
    expect(resolveConfig(avatar({}, { Subtitle: { Enabled: false } }), new URLSearchParams()).captions).toBe(false);
    expect(resolveConfig(avatar(), new URLSearchParams('hideCaptions=true')).captions).toBe(false);
  });

  it('uses the avatar JSON panel colour for the dial page when enabled', () => {
    expect(resolveConfig(avatar({}, { panel: { Enable: true, BgColor: '#223344' } }), new URLSearchParams()).panelColor).toBe('#223344');
    expect(resolveConfig(avatar({}, { panel: { Enable: false, BgColor: '#223344' } }), new URLSearchParams()).panelColor).toBeNull();
  });

  it('reads aspect ratios', () => {
    expect(aspectRatio('9:16')).toBe('9 / 16');
    expect(aspectRatio(undefined)).toBeNull();
  });
});
