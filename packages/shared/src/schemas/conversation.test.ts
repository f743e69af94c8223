import { describe, expect, it } from 'vitest';
import { MAX_SPEECH_AT_MS, parseClientMessage } from './conversation';

describe('user_speech', () => {
  const frame = (at: unknown): string => JSON.stringify({ type: 'user_speech', event: 'start', at });

  it('takes a time since the conversation started, or none', () => {
    expect(parseClientMessage(frame(0)).ok).toBe(true);
    expect(parseClientMessage(frame(1234.5)).ok).toBe(true);
    expect(parseClientMessage(JSON.stringify({ type: 'user_speech', event: 'end' })).ok).toBe(true);
  });

  it('refuses a negative, endless or more-than-a-day time', () => {
    expect(parseClientMessage(frame(-1)).ok).toBe(false);
    expect(parseClientMessage(frame(MAX_SPEECH_AT_MS + 1)).ok).toBe(false);
    // JSON has no Infinity, but 1e999 parses to it.
    expect(parseClientMessage('{"type":"user_speech","event":"start","at":1e999}').ok).toBe(false);
    expect(parseClientMessage(frame('5')).ok).toBe(false);
  });
});
