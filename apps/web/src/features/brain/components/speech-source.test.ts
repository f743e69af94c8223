import { describe, expect, it } from 'vitest';
import {
  BROWSER_SPEECH_SIMPLE,
  EMBEDDED_VOICE_COMPOSITE,
  EMBEDDED_VOICE_SIMPLE,
  SERVER_SPEECH_SIMPLE,
  speechSourceNote,
} from './speech-source';

describe("the Brain tab's speech line", () => {
  it('says the embedded voice speaks when the server has it and no speech server, and the browser otherwise', () => {
    expect(speechSourceNote('Simple', false, true)).toBe(EMBEDDED_VOICE_SIMPLE);
    expect(speechSourceNote('Composite', false, true)).toBe(EMBEDDED_VOICE_COMPOSITE);
    expect(speechSourceNote('Simple', false, false)).toBe(BROWSER_SPEECH_SIMPLE);
    expect(speechSourceNote('Simple', true, true)).toBe(SERVER_SPEECH_SIMPLE);
    expect(speechSourceNote('Simple', undefined, true)).toBeNull();
  });
});
