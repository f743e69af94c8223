// Steps the cross-engine specs share, written against engine-page.ts's Doc so they run alike in
// Firefox ESR and WebKitGTK. Every check reads what the end user sees or hears: the stage's
// state, the chat history, the captions, the face's viseme and pixels, the page's audio.
import { expect } from '@playwright/test';
import { installAudioTap, type AudioTap } from '../support/audio-tap';
import type { Doc } from './engine-page';

/** The dial page's LET'S CHAT, with the audio tap installed first (no engine-wide init scripts in
 *  WebDriver classic, and the reply player makes its AudioContext on the greeting). */
export async function startChat(player: Doc): Promise<void> {
  await expect.poll(() => player.run(() => !!document.querySelector('.lets-chat')), { timeout: 30_000 }).toBe(true);
  await player.run(installAudioTap);
  await player.click('.lets-chat');
  await stageReady(player);
}

export async function stageReady(player: Doc): Promise<void> {
  await expect
    .poll(() => player.run(() => document.querySelector('[data-testid="stage"]')?.getAttribute('data-state') ?? 'none'), {
      timeout: 30_000,
    })
    .toBe('ready');
}

/** Starts recording, in the page, every viseme the face shows and every caption shown (a reply can
 *  be over before a poll through WebDriver comes round); the function returned reads them. */
export async function recordSpeech(player: Doc): Promise<() => Promise<{ visemes: string[]; captions: string[] }>> {
  await player.run(() => {
    const face = document.querySelector('[data-testid="avatar-face"]') as HTMLElement;
    const seen = { visemes: [] as string[], captions: [] as string[] };
    (window as unknown as { seen: typeof seen }).seen = seen;
    new MutationObserver(() => seen.visemes.push(face.dataset.viseme ?? '')).observe(face, {
      attributes: true,
      attributeFilter: ['data-viseme'],
    });
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="captions"]')?.textContent ?? '';
      if (text && seen.captions.at(-1) !== text) seen.captions.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => player.run(() => (window as unknown as { seen: { visemes: string[]; captions: string[] } }).seen);
}

/** Whether this browser's audio runs here: headless Firefox on a machine without a sound device
 *  never starts an AudioContext (resume() never settles); WebKitGTK's does. */
export const audioRuns = (player: Doc) =>
  player.run(async () => {
    const c = new AudioContext();
    await Promise.race([c.resume(), new Promise((r) => setTimeout(r, 2000))]);
    const running = c.state === 'running';
    void c.close();
    return running;
  });

export const messages = (player: Doc, role: 'user' | 'assistant') =>
  player.run((r: string) => [...document.querySelectorAll(`.msg.${r}`)].map((m) => m.textContent ?? ''), role);

export const tap = (player: Doc) => player.run(() => (window as unknown as { __audio?: AudioTap }).__audio ?? null);

/** The greeting arrives and is spoken to its end (the mouth back at rest, the captions gone). */
export async function greeted(player: Doc): Promise<void> {
  await expect.poll(async () => (await messages(player, 'assistant')).length, { timeout: 30_000 }).toBeGreaterThan(0);
  await quiet(player);
}

/** The avatar is not speaking: the mouth at rest and no captions. */
export async function quiet(player: Doc): Promise<void> {
  await expect
    .poll(
      () =>
        player.run(() =>
          [
            document.querySelector('[data-testid="avatar-face"]')?.getAttribute('data-viseme'),
            document.querySelector('[data-testid="captions"]')?.textContent ?? '',
          ].join('|'),
        ),
      { timeout: 30_000 },
    )
    .toBe('sil|');
}

/** While the avatar speaks, the face region's pixels change between two moments. */
export async function faceMoves(player: Doc): Promise<void> {
  const first = await player.shot('[data-testid="avatar-face"]');
  await expect
    .poll(async () => Buffer.compare(first, await player.shot('[data-testid="avatar-face"]')) !== 0, { timeout: 5_000 })
    .toBe(true);
}
