// Shared by the conversation journeys: sign-in and avatar saves through the API (as the editor's
// screens would save them), and a recorder of the visemes the player's face shows.
import { expect, type APIRequestContext, type FrameLocator } from '@playwright/test';
import { E2E_APP_KEY } from './accounts';

export async function apiLogin(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post('/api/login', { headers: { authorization: `Bearer ${E2E_APP_KEY}` }, data: { email, password } });
  expect(res.ok()).toBe(true);
  return (await res.json()).sessionId as string;
}

export interface SavedAvatar {
  id: string;
  token: string;
  updated: string;
  name: string;
  dhType: string;
  appearanceId: string;
}

export async function saveAvatar(request: APIRequestContext, auth: string, json: Record<string, unknown>): Promise<SavedAvatar> {
  const res = await request.post('/api/avatar_v2/add', { headers: { authorization: auth }, multipart: { json: JSON.stringify(json) } });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).agent as SavedAvatar;
}

/** Starts recording the face's visemes; the function returned reads what was seen so far, or
 *  only what was seen once the chat history held `sinceReplies` of the avatar's replies (the
 *  reply's text is shown before its audio plays, so its lips come after it). */
export async function recordVisemes(frame: FrameLocator): Promise<(sinceReplies?: number) => Promise<string[]>> {
  await frame.getByTestId('avatar-face').evaluate((face) => {
    const seen: { viseme: string; replies: number }[] = [];
    (window as unknown as { visemes: typeof seen }).visemes = seen;
    new MutationObserver(() =>
      seen.push({ viseme: (face as HTMLElement).dataset.viseme ?? '', replies: document.querySelectorAll('.msg.assistant').length }),
    ).observe(face, {
      attributes: true,
      attributeFilter: ['data-viseme'],
    });
  });
  return (sinceReplies = 0) =>
    frame
      .getByTestId('avatar-face')
      .evaluate(
        (_, since) =>
          (window as unknown as { visemes: { viseme: string; replies: number }[] }).visemes
            .filter((v) => v.replies >= since)
            .map((v) => v.viseme),
        sinceReplies,
      );
}
