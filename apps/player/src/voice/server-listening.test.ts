import { describe, expect, it } from 'vitest';
import { micFailureMessage } from '../app/mic-messages';
import { micErrorName } from './server-listening';

describe("Microphone failures in the user's words", () => {
  it('tells a capture whose audio never starts apart from a missing or refused microphone', () => {
    expect(micErrorName(Object.assign(new Error('x'), { name: 'AudioStalledError' }))).toBe('audio-stalled');
    expect(micErrorName(Object.assign(new Error('x'), { name: 'NotAllowedError' }))).toBe('not-allowed');
    expect(micErrorName(new Error('x'))).toBe('audio-capture');
    expect(micFailureMessage('audio-stalled')).toContain('cannot start its sound');
  });
});
