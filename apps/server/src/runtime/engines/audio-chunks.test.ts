import { describe, expect, it } from 'vitest';
import { audioPieces } from './audio-chunks';

const pcm = (samples: number) => Buffer.alloc(samples * 2, 1).toString('base64');

describe('audioPieces', () => {
  it('cuts PCM into pieces of at most the given size and moves each word into the piece it starts in', () => {
    const pieces = audioPieces(
      {
        type: 'audio',
        format: 'pcm16',
        sampleRate: 100,
        audio: pcm(250),
        words: [
          { word: 'one', start: 0.2, end: 0.9 },
          { word: 'two', start: 1.1, end: 1.5 },
          { word: 'three', start: 2.2, end: 2.5 },
        ],
      },
      200,
    );
    expect(pieces.map((p) => Buffer.from(p.audio, 'base64').length)).toEqual([200, 200, 100]);
    expect(pieces.map((p) => p.words?.map((w) => [w.word, Number(w.start.toFixed(2)), Number(w.end.toFixed(2))]))).toEqual([
      [['one', 0.2, 0.9]],
      [['two', 0.1, 0.5]],
      [['three', 0.2, 0.5]],
    ]);
  });

  it('leaves short audio and formats that cannot be cut whole', () => {
    const short = { type: 'audio' as const, format: 'pcm16' as const, sampleRate: 100, audio: pcm(100) };
    expect(audioPieces(short, 200)).toEqual([short]);
    const mp3 = { type: 'audio' as const, format: 'mp3' as const, audio: pcm(1000) };
    expect(audioPieces(mp3)).toEqual([mp3]);
  });
});
