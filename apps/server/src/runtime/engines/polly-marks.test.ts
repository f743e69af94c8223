// Polly's speech marks are a provider's answer: hostile or broken lines never fail the speech.
import { describe, expect, it } from 'vitest';
import { cuesFromMarks } from './polly-marks';

describe("Polly's speech marks", () => {
  it('maps visemes to the Oculus set and ends each mark where the next of its kind starts, the last at the audio end', () => {
    const body = [
      '{"time":0,"type":"word","start":0,"end":2,"value":"Hi"}',
      '{"time":0,"type":"viseme","value":"k"}',
      '{"time":120,"type":"viseme","value":"a"}',
    ].join('\n');
    expect(cuesFromMarks(body, 0.5)).toEqual({
      visemes: [
        { viseme: 'kk', start: 0, end: 0.12 },
        { viseme: 'aa', start: 0.12, end: 0.5 },
      ],
      words: [{ word: 'Hi', start: 0, end: 0.5 }],
    });
  });

  it('skips lines that are not JSON, marks without a time or value, unknown viseme names, and marks past the audio', () => {
    const body = [
      'not json',
      '{"time":-5,"type":"viseme","value":"p"}',
      '{"type":"viseme","value":"p"}',
      '{"time":10,"type":"viseme","value":"Z"}',
      '{"time":20,"type":"viseme","value":"p"}',
      '{"time":99999,"type":"viseme","value":"a"}',
      '{"time":30,"type":"word","value":{"x":1}}',
      '',
    ].join('\n');
    const cues = cuesFromMarks(body, 1);
    expect(cues.words).toEqual([]);
    expect(cues.visemes).toEqual([{ viseme: 'PP', start: 0.02, end: 1 }]);
  });
});
