// The agent's streamed audio through Web Audio, and the mouth that follows it. Pieces are
// scheduled back to back on the audio clock. A reply is the run of pieces that plays without a
// gap; its text (when the provider sends it) is spread over the audio when the pieces carry no
// character alignment, and the audio's energy moves the mouth when there is neither.
import type { Viseme } from '@parla/shared/visemes';
import { alignmentCues, cueAt, spreadViseme, textTimeline, type CharAlignment } from '../../lipsync/alignment';
import { EnergyMouth } from '../../lipsync/energy';
import type { MouthSource } from '../../lipsync/face-driver';
import type { Timeline, VisemeCue } from '../../lipsync/timeline';

/** Lead time before the first piece of a reply, seconds (scheduling slack). */
const LEAD = 0.05;

interface Piece {
  start: number;
  end: number;
  cues: VisemeCue[] | null;
  node: AudioBufferSourceNode;
}

interface Reply {
  text: string;
  timeline: Timeline | null;
  start: number;
  end: number;
  pieces: Piece[];
}

/** The parts of Web Audio the voice uses (a real AudioContext in the browser). */
export type VoiceContext = Pick<
  AudioContext,
  'currentTime' | 'destination' | 'createBuffer' | 'createBufferSource' | 'createGain' | 'createAnalyser' | 'resume' | 'close' | 'state'
>;

export interface AgentVoiceEvents {
  onMouth(source: MouthSource | null): void;
  onSpeaking?(on: boolean): void;
}

export class AgentVoice implements MouthSource {
  private readonly gain: GainNode;
  private readonly energy: EnergyMouth;
  private replies: Reply[] = [];
  private pendingTexts: string[] = [];
  private playhead = 0;
  private speaking = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ctx: VoiceContext,
    private readonly events: AgentVoiceEvents,
    private readonly language = 'en',
  ) {
    this.gain = ctx.createGain();
    const analyser = ctx.createAnalyser();
    this.gain.connect(analyser);
    analyser.connect(ctx.destination);
    this.energy = new EnergyMouth(analyser);
  }

  setSpeaker(on: boolean): void {
    this.gain.gain.value = on ? 1 : 0;
  }

  /** The text of a reply: the reply whose audio came without text, or the next one. */
  text(text: string): void {
    const last = this.replies.at(-1);
    if (last && !last.text && last.end > this.ctx.currentTime) this.setText(last, text);
    else this.pendingTexts.push(text);
  }

  private setText(reply: Reply, text: string): void {
    reply.text = text;
    reply.timeline = textTimeline(text, this.language);
  }

  /** Queues a piece of audio (mono samples) after the ones already queued. */
  play(samples: Float32Array, sampleRate: number, alignment?: CharAlignment): void {
    if (!samples.length) return;
    if (this.ctx.state === 'suspended') void this.ctx.resume();
    const now = this.ctx.currentTime;
    const buffer = this.ctx.createBuffer(1, samples.length, sampleRate);
    buffer.getChannelData(0).set(samples);
    const node = this.ctx.createBufferSource();
    node.buffer = buffer;
    node.connect(this.gain);
    let reply = this.replies.at(-1);
    if (!reply || this.playhead <= now) {
      // The audio ran dry: this piece starts a new reply.
      const start = now + LEAD;
      reply = { text: '', timeline: null, start, end: start, pieces: [] };
      const text = this.pendingTexts.shift();
      if (text) this.setText(reply, text);
      this.replies = [...this.replies.filter((r) => r.end > now), reply];
      this.playhead = start;
    }
    const start = this.playhead;
    const end = start + samples.length / sampleRate;
    node.start(start);
    reply.pieces.push({ start, end, cues: alignment ? alignmentCues(alignment, start, this.language) : null, node });
    reply.end = end;
    this.playhead = end;
    this.setSpeaking(true);
    this.watch();
  }

  /** Stops everything queued and playing (an interruption, the end of the conversation). */
  stop(): void {
    for (const r of this.replies)
      for (const p of r.pieces) {
        try {
          p.node.stop();
        } catch {
          // Never started.
        }
      }
    this.replies = [];
    this.pendingTexts = [];
    this.playhead = 0;
    this.setSpeaking(false);
  }

  get isSpeaking(): boolean {
    return this.speaking;
  }

  /** The viseme for the audio clock's time now. */
  viseme(): Viseme {
    return this.visemeAt(this.ctx.currentTime);
  }

  visemeAt(t: number): Viseme {
    const reply = this.replies.find((r) => r.start <= t && t < r.end);
    if (!reply) return 'sil';
    const piece = reply.pieces.find((p) => p.start <= t && t < p.end);
    if (piece?.cues) return cueAt(piece.cues, t);
    if (reply.timeline) return spreadViseme(reply.timeline, reply.start, reply.end, t);
    return this.energy.viseme();
  }

  private setSpeaking(on: boolean): void {
    if (on === this.speaking) return;
    this.speaking = on;
    this.events.onMouth(on ? this : null);
    this.events.onSpeaking?.(on);
  }

  /** Notices the end of the audio (timers keep going in hidden tabs, unlike frames). */
  private watch(): void {
    clearTimeout(this.timer);
    const left = this.playhead - this.ctx.currentTime;
    if (left <= 0) return this.setSpeaking(false);
    this.timer = setTimeout(() => this.watch(), Math.max(20, left * 1000 + 20));
  }

  async dispose(): Promise<void> {
    clearTimeout(this.timer);
    this.stop();
    if (this.ctx.state !== 'closed') await this.ctx.close().catch(() => undefined);
  }
}
