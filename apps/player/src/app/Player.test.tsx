// Embed parameters and client JSON change what the player shows; a typed message reaches the
// history and the captions and moves the mouth. The renderer is replaced by a stub (no canvas
// or WebGL in jsdom); everything else is the real player.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PublicAvatar } from '@parla/shared/schemas/player';
import { resolveConfig } from '../config/player-config';
import { Player } from './Player';
import type { AvatarRenderer } from '../renderers/renderer';

// The conversation is the in-page echo here (the runtime's client has its own tests).
vi.mock('../conversation/create-client', async () => {
  const { EchoClient } = await import('../conversation/echo-client');
  return { createConversationClient: () => new EchoClient('Echo') };
});

vi.mock('../renderers/renderer', async (original) => ({
  ...(await original<Record<string, unknown>>()),
  createRenderer: async (): Promise<AvatarRenderer> => ({ profile: 'image', frame() {}, resize() {}, dispose() {} }),
}));

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterEach(cleanup);

const avatar: PublicAvatar = {
  id: 'a1',
  name: 'Mei',
  dhType: 'image',
  engine: 'Echo',
  appearance: { id: 'img-mei', modelURL: '/m.json', previewURL: '/p.webp' },
  scene: { background: { kind: 'color', color: '#123456' }, lighting: null, environment: null },
  avatarJson: { Subtitle: { Enabled: true } },
  clientJson: {},
  language: 'en-US',
  voice: { provider: 'browser', gender: 'female', wordsPerSecond: 6 },
  embedDefaults: {},
};

function show(query: string, overrides: Partial<PublicAvatar> = {}) {
  const a = { ...avatar, ...overrides };
  return render(<Player avatar={a} config={resolveConfig(a, new URLSearchParams(query))} />);
}

describe('dial page', () => {
  it("shows the avatar and the LET'S CHAT button", () => {
    show('');
    expect(screen.getByTestId('dial-page')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Mei' })).toBeTruthy();
    expect(screen.getByRole('button', { name: "LET'S CHAT" })).toBeTruthy();
  });

  it('uses the client JSON button text and hides the button with hideLetsChatBtn', () => {
    show('', { clientJson: { letsChatButtonText: 'START' } });
    expect(screen.getByRole('button', { name: 'START' })).toBeTruthy();
    cleanup();
    show('hideLetsChatBtn=true');
    expect(screen.queryByRole('button', { name: "LET'S CHAT" })).toBeNull();
  });

  it('paints dialPageBackground', () => {
    show('dialPageBackground=%23ff0000');
    expect(screen.getByTestId('dial-page').style.background).toMatch(/rgb\(255, 0, 0\)|#ff0000/);
  });

  it("goes live on LET'S CHAT, and connect=true skips the dial page", () => {
    show('');
    fireEvent.click(screen.getByRole('button', { name: "LET'S CHAT" }));
    expect(screen.getByTestId('player').dataset.phase).toBe('live');
    cleanup();
    show('connect=true');
    expect(screen.queryByTestId('dial-page')).toBeNull();
    expect(screen.getByLabelText('Message')).toBeTruthy();
  });
});

describe('live player', () => {
  it('hides the chat input with hideChatInput and places the controls by controlButtonPosition', () => {
    show('connect=true&hideChatInput=true&controlButtonPosition=left');
    expect(screen.queryByLabelText('Message')).toBeNull();
    expect(screen.getByTestId('controls').dataset.position).toBe('left');
  });

  it('starts with the speaker off with speakerOff, and hides it with hideSpeakerButton', () => {
    show('connect=true&speakerOff=true');
    expect(screen.getByRole('button', { name: 'Speaker' }).getAttribute('aria-pressed')).toBe('false');
    cleanup();
    show('connect=true&hideSpeakerButton=true');
    expect(screen.queryByRole('button', { name: 'Speaker' })).toBeNull();
  });

  it('shows a typed message and the reply in the history and the captions, and moves the mouth', async () => {
    show('connect=true');
    const face = screen.getByTestId('avatar-face');
    const seen = new Set<string>();
    const watch = new MutationObserver(() => seen.add(face.dataset.viseme ?? ''));
    watch.observe(face, { attributes: true, attributeFilter: ['data-viseme'] });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello there, my friend.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByRole('log').textContent).toContain('Hello there, my friend.Hello there, my friend.'));
    await waitFor(() => expect(screen.getByTestId('captions').textContent).toBe('Hello there, my friend.'));
    await waitFor(() => expect([...seen].some((v) => v !== 'sil')).toBe(true));
    await waitFor(() => expect(face.dataset.viseme).toBe('sil'), { timeout: 4000 });
    watch.disconnect();
  });

  it('hides the history with hideChatHistory', async () => {
    show('connect=true&hideChatHistory=true');
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hi' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(screen.queryByRole('log')).toBeNull();
  });

  it('hangs up back to the dial page', () => {
    show('');
    fireEvent.click(screen.getByRole('button', { name: "LET'S CHAT" }));
    fireEvent.click(screen.getByRole('button', { name: 'End chat' }));
    expect(screen.getByTestId('dial-page')).toBeTruthy();
  });

  it("keeps the mic off after LET'S CHAT until the user switches it on; a mic with no device goes off with a message", async () => {
    let starts = 0;
    class NoDeviceRecognition {
      lang = '';
      continuous = false;
      interimResults = false;
      onresult = null;
      onerror: ((e: { error: string }) => void) | null = null;
      onend: (() => void) | null = null;
      start() {
        starts++;
        setTimeout(() => {
          this.onerror?.({ error: 'audio-capture' });
          this.onend?.();
        }, 1);
      }
      stop() {}
      abort() {}
    }
    vi.stubGlobal('webkitSpeechRecognition', NoDeviceRecognition);
    try {
      show('');
      fireEvent.click(screen.getByRole('button', { name: "LET'S CHAT" }));
      const mic = screen.getByRole('button', { name: 'Microphone' });
      expect(mic.getAttribute('aria-pressed')).toBe('false');
      expect(starts).toBe(0);
      fireEvent.click(mic);
      await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/No microphone was found/));
      expect(mic.getAttribute('aria-pressed')).toBe('false');
      await new Promise((r) => setTimeout(r, 300));
      expect(starts).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('explains, when the mic button is pressed, that nothing can listen here (no server speech, no browser recognition)', async () => {
    show('');
    fireEvent.click(screen.getByRole('button', { name: "LET'S CHAT" }));
    const mic = screen.getByRole('button', { name: 'Microphone' });
    fireEvent.click(mic);
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/Voice input is not available here/));
    expect(mic.getAttribute('aria-pressed')).toBe('false');
  });
});
