// The Brain tab's "Play sample" (issue 35 item 2, decision 126): a sentence in an embedded voice,
// synthesised by the same worker pool visitors hear (never on the event loop) and kept once made,
// so a customer clicking through the four voices costs four syntheses per process, not one a click.
import { embeddedSampleText, type EmbeddedVoiceId } from '@parla/shared/embedded-voices';
import { embeddedVoiceName } from './embedded-tts';
import { piecesOf } from './phonemes';
import type { EmbeddedVoicePool } from './voice-pool';

/** A mono 16-bit PCM buffer with the 44-byte RIFF header every browser's <audio> plays. */
export function wavOf(pcm: Buffer, sampleRate: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + pcm.length, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([h, pcm]);
}

export class VoiceSamples {
  /** Made (or being made) samples; a failed one is forgotten so the next click tries again. */
  private readonly made = new Map<EmbeddedVoiceId, Promise<Buffer>>();

  constructor(private readonly pool: EmbeddedVoicePool) {}

  wav(voice: EmbeddedVoiceId): Promise<Buffer> {
    let p = this.made.get(voice);
    if (!p) {
      p = this.make(voice);
      this.made.set(voice, p);
      p.catch(() => this.made.delete(voice));
    }
    return p;
  }

  private async make(voice: EmbeddedVoiceId): Promise<Buffer> {
    const parts = await Promise.all(
      piecesOf(embeddedSampleText(embeddedVoiceName(voice))).map((piece) => this.pool.synthesize(piece, voice, `sample:${voice}`)),
    );
    return wavOf(Buffer.concat(parts.map((p) => p.pcm)), parts[0]!.sampleRate);
  }
}
