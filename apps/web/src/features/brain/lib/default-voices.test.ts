import { describe, expect, it } from 'vitest';
import { buildBrainCatalogue } from '@parla/shared/provider-urls';
import { pipelineToForms } from '@parla/shared/schemas/brain-pipeline';
import type { VoiceEntry } from '@parla/shared/providers';
import { defaultVoiceChoice, withShownVoice } from './default-voices';

const builtIn = (id: string, gender: string): VoiceEntry => ({
  id,
  name: `${id}, built in`,
  languageCode: 'en-US',
  languageName: 'English',
  gender,
  supportedEngines: ['embedded'],
  custom: false,
});
const base = buildBrainCatalogue();
const catalogue = {
  ...base,
  defaultVoices: [builtIn('slt', 'Female'), builtIn('rms', 'Male'), builtIn('awb', 'Male'), ...base.defaultVoices],
  embeddedVoice: true,
  serverSpeech: false,
};

describe('the Default voice list', () => {
  it('offers an English avatar the built-in voices only, the one fitting its face and accent chosen', () => {
    const us = defaultVoiceChoice(catalogue, 'en-US', 'male');
    expect(us.list.map((v) => v.id)).toEqual(['slt', 'rms', 'awb']);
    expect(us.fitting).toBe('rms');
    expect(defaultVoiceChoice(catalogue, 'en-GB', 'male').fitting).toBe('awb');
    expect(defaultVoiceChoice(catalogue, 'en-GB', 'female').fitting).toBe('slt');
    expect(us.note).toBeNull();
  });

  it('offers another language the browser voices and says plainly why', () => {
    const de = defaultVoiceChoice(catalogue, 'de-DE', 'female');
    expect(de.list.some((v) => v.supportedEngines.includes('embedded'))).toBe(false);
    expect(de.note).toMatch(/^The built-in voices speak English only: for German \(Germany\), visitors hear their browser's voice/);
  });

  it('lists every voice where a speech server speaks, with no note', () => {
    const c = defaultVoiceChoice({ ...catalogue, serverSpeech: true }, 'de-DE', 'male');
    expect(c.list).toHaveLength(catalogue.defaultVoices.length);
    expect(c.note).toBeNull();
  });

  it('opens a new male avatar (the browser voice Ava stored) on the voice the server speaks for him', () => {
    const form = pipelineToForms({ tts: { provider: 'default', voice_id: 'parla-en-US-female' } }, { setupMode: 'Simple', nlpEngine: 0 });
    expect(withShownVoice(form, catalogue, 'male').ttsDetails.ttsVoice).toBe('rms');
    const picked = pipelineToForms({ tts: { provider: 'default', voice_id: 'awb' } }, { setupMode: 'Simple', nlpEngine: 0 });
    expect(withShownVoice(picked, catalogue, 'female').ttsDetails.ttsVoice).toBe('awb');
  });
});
