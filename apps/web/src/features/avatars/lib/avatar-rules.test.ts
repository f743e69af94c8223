import { describe, expect, it } from 'vitest';
import { AvatarEngine } from '@parla/shared/enums';
import { ErrorCode } from '@parla/shared/errors';
import { UPLOAD_LIMITS } from '@parla/shared/limits';
import { UPLOAD_REF, isSelfHostedConfigUrl, type Avatar } from '@parla/shared/schemas/avatar';
import { ApiError } from '../../../lib/api-client';
import { enginesFor, functionsEnabled, knowledgeEnabled } from '../components/editor/brain-modes';
import { embedSnippet } from '../components/editor/embed-tab';
import { previewSource } from '../components/editor/preview-frame';
import { emptyValues, payloadFrom, valuesFromAvatar } from './editor-values';
import { saveErrorMessage } from './save-feedback';
import { uploadProblem } from './upload-check';

const file = (name: string, type: string, size: number) => ({ name, type, size }) as File;

describe('the browser pre-check of uploads', () => {
  it('accepts each kind at exactly its limit and refuses one byte more with the spec message', () => {
    expect(uploadProblem(file('a.png', 'image/png', UPLOAD_LIMITS.image), ['image'])).toBeNull();
    expect(uploadProblem(file('a.png', 'image/png', UPLOAD_LIMITS.image + 1), ['image'])).toBe('File size exceeds 10MB for image.');
    expect(uploadProblem(file('a.mp4', 'video/mp4', UPLOAD_LIMITS.video + 1), ['video'])).toBe('File size exceeds 25MB for video.');
    expect(uploadProblem(file('room.glb', '', UPLOAD_LIMITS.glb), ['glb'])).toBeNull();
    expect(uploadProblem(file('room.glb', '', UPLOAD_LIMITS.glb + 1), ['glb'])).toBe('File size exceeds 25MB for glb.');
    expect(uploadProblem(file('a.mp4', 'video/mp4', 10), ['image'])).toBe('Please choose an image file.');
  });
});

describe('the save payload', () => {
  it('sends only the creation fields for a new avatar', () => {
    const v = { ...emptyValues(), name: 'Nova', dhType: '2d' as const, appearanceId: 'cara' };
    expect(Object.keys(payloadFrom(v)).sort()).toEqual(['appearanceId', 'avatarJson', 'clientJson', 'dhType', 'name']);
  });

  it('sends the whole avatar with its version, the media to keep and a pending upload placeholder', () => {
    const saved = {
      id: 'a1',
      updated: '2026-01-01T00:00:00.000Z',
      name: 'Nova',
      dhType: '2d',
      appearanceId: 'cara',
      nlpEngine: 0,
      restApiKey: '••••abcd',
      avatarJson: {},
      clientJson: {},
      avatarConfigURL: 'http://x/config-files/avatars/a1/avatar.json',
      clientConfigURL: 'http://x/config-files/avatars/a1/client.json',
      mediaDetails: { backgroundImage: [{ id: 'm1', url: '/m1.png', kind: 'image' }], scene: [] },
      customData: {},
    } as unknown as Avatar;
    const v = valuesFromAvatar(saved);
    v.avatarJson = { panel: { contentURL: UPLOAD_REF.backgroundImage } };
    const p = payloadFrom(v);
    expect(p).toMatchObject({
      id: 'a1',
      updated: saved.updated,
      restApiKey: '••••abcd',
      mediaDetails: { backgroundImage: [{ id: 'm1' }], scene: [] },
    });
    expect(p.avatarJson?.panel?.contentURL).toBe('upload:backgroundImage');
  });
});

describe('save failures', () => {
  it('maps failReasons to messages and falls back for anything unreadable', () => {
    expect(saveErrorMessage(new ApiError(ErrorCode.InvalidOrMissingParams, 400, ['x'], 'INVALID_APPEARANCE'))).toMatch(
      /appearance is not available/,
    );
    expect(
      saveErrorMessage(new ApiError(ErrorCode.InvalidOrMissingParams, 413, ['File size exceeds 10MB for image.'], 'FILE_TOO_LARGE')),
    ).toBe('File size exceeds 10MB for image.');
    expect(saveErrorMessage(new Error('boom'))).toBe('An unexpected error occurred. Please try again.');
  });
});

describe('the Brain tab rules', () => {
  it('offers the engines of each mode and enables knowledge and functions as spec 2 §2 says', () => {
    expect(enginesFor('SpeechToSpeech')).toEqual([AvatarEngine.ParlaRealtime]);
    expect(enginesFor('Simple')).toContain(AvatarEngine.EchoTest);
    expect(knowledgeEnabled(AvatarEngine.EchoTest)).toBe(false);
    expect(knowledgeEnabled(AvatarEngine.LargeLanguageModel)).toBe(true);
    expect(functionsEnabled(AvatarEngine.ParlaRealtime, false)).toBe(false);
    expect(functionsEnabled(AvatarEngine.ParlaRealtime, true)).toBe(true);
  });
});

describe('links and snippets', () => {
  it("previews in the player's preview mode (an in-page echo, never a server conversation), on the saved avatar when there is one", () => {
    const saved = { id: 'a1', token: 't0k', updated: 'u1' };
    const params = (src: string | null) => Object.fromEntries(new URL(src!).searchParams);
    const kept = previewSource('http://h', saved, 'cara');
    expect(kept).toMatch(/^http:\/\/h\/avatar\/preview\?/);
    expect(params(kept)).toMatchObject({ avatarId: 'a1', token: 't0k', v: 'u1', appearanceId: 'cara' });
    expect(params(previewSource('http://h', saved, 'dev', { lightingId: 'l1' }))).toMatchObject({
      avatarId: 'a1',
      appearanceId: 'dev',
      lightingId: 'l1',
    });
    expect(params(previewSource('http://h', null, 'dev'))).not.toHaveProperty('avatarId');
    expect(previewSource('http://h', null, '')).toBeNull();
  });

  it("passes the draft's language and its wake-up message (or a greeting) to the preview", async () => {
    const { talkParams, PREVIEW_GREETING } = await import('../components/editor/preview-frame');
    expect(talkParams({ language: 'de-DE, en-US', wakeUpMessage: ' Hallo! ' })).toEqual({ language: 'de-DE', greeting: 'Hallo!' });
    expect(talkParams({})).toEqual({ greeting: PREVIEW_GREETING });
  });

  it('embeds the access link with the permissions a conversation needs', () => {
    expect(embedSnippet('http://h/avatar/a1?token=t')).toBe(
      '<iframe src="http://h/avatar/a1?token=t" width="100%" height="640" style="border:0" allow="camera; microphone; fullscreen; autoplay; encrypted-media; picture-in-picture" allowfullscreen></iframe>',
    );
  });

  it('calls a config URL self-hosted unless it is on the provider config-files path', () => {
    expect(isSelfHostedConfigUrl('http://h/config-files/avatars/a1/avatar.json', ['http://h'])).toBe(false);
    expect(isSelfHostedConfigUrl('/config-files/avatars/a1/avatar.json', ['http://h'])).toBe(false);
    expect(isSelfHostedConfigUrl('https://cdn.example.com/avatar.json', ['http://h'])).toBe(true);
  });
});

describe('the preview of unsaved environment choices', () => {
  it('turns catalogue choices of the draft into the player scene parameters', async () => {
    const { sceneParams } = await import('../components/editor/preview-frame');
    const env = {
      backgrounds: [{ id: 'office', name: 'Office', kind: 'image' as const, url: '/c/office.jpg', previewURL: '/p' }],
      lights: [],
      environments: [{ id: 'loft', name: 'Loft', modelURL: '/c/loft.glb', previewURL: '/p', staging: {} as never }],
    };
    expect(sceneParams({ panel: { contentURL: '/c/office.jpg' }, Lights: [{ preset: 'studio' }] }, env)).toEqual({
      backgroundId: 'office',
      lightingId: 'studio',
    });
    expect(sceneParams({ panel: { BgColor: '#112233' }, Environment: { 'gltf-model': '/c/loft.glb' } }, env)).toEqual({
      backgroundColor: '#112233',
      environmentId: 'loft',
    });
    expect(sceneParams({ Scene: { background: 'transparent: true' }, panel: { contentURL: '/c/office.jpg' } }, env)).toEqual({
      transparent: 'true',
    });
  });
});
