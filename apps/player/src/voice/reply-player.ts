// Streamed reply audio (decision 611): binary chunks decoded and scheduled back to back on one
// AudioContext (pcm16 at the header's rate; mp3/wav/opus through decodeAudioData, in order),
// the lips driven by each chunk's timings or the audio's level. stop() silences the turn and
// rests the mouth in the same call (barge-in, the user's stop, hang-up).
import type { AudioFrameHeader } from '@parla/shared/audio-frames';
import type { FaceDriver } from '../lipsync/face-driver';
import { EnergyMouth } from '../lipsync/energy';
import { floatFromPcm16 } from './pcm16';
import { ReplyClock } from './reply-clock';
import { ChunkSchedule } from './schedule';
import { StreamMouth, chunkCues } from './stream-mouth';

export interface ReplyEvents {
  onStart?(turnId: string): void;
  /** Every onStart has its onEnd; `interrupted` when stop() cut it. */
  onEnd?(turnId: string, info: { interrupted: boolean }): void;
}

/** A chunk's audio as placed on the reply's clock (placed again when the context starts running). */
interface Placed {
  node: AudioBufferSourceNode;
  buffer: AudioBuffer;
  start: number;
}

interface Turn {
  id: string;
  sources: Placed[];
  /** Decoding keeps chunks in order. */
  chain: Promise<void>;
  started: boolean;
  complete: boolean;
  mouth: StreamMouth;
  timer?: ReturnType<typeof setTimeout>;
}

export class ReplyPlayer {
  private context: AudioContext | null = null;
  private output: GainNode | null = null;
  private analyser: AnalyserNode | null = null;
  private clock: ReplyClock | null = null;
  private readonly schedule = new ChunkSchedule();
  private turn: Turn | null = null;
  /** Turns stopped here: their late chunks are dropped. */
  private readonly stopped = new Set<string>();
  private speaker = true;

  constructor(
    private readonly driver: FaceDriver,
    private readonly language: string,
    private events: ReplyEvents = {},
  ) {}

  setEvents(events: ReplyEvents): void {
    this.events = events;
  }

  setSpeaker(on: boolean): void {
    this.speaker = on;
    if (this.output) this.output.gain.value = on ? 1 : 0;
  }

  get speaking(): boolean {
    return this.turn?.started === true;
  }

  /** Whether this turn's audio is playing now. */
  playing(turnId: string): boolean {
    return this.turn?.id === turnId && this.turn.started;
  }

  private audio(): { context: AudioContext; output: GainNode; analyser: AnalyserNode } {
    if (!this.context || !this.output || !this.analyser) {
      this.context = new AudioContext({ latencyHint: 'interactive' });
      this.clock = new ReplyClock(this.context, undefined, () => this.placeAgain());
      this.output = this.context.createGain();
      this.output.gain.value = this.speaker ? 1 : 0;
      this.analyser = this.context.createAnalyser();
      this.output.connect(this.analyser).connect(this.context.destination);
    }
    if (this.context.state === 'suspended') void this.context.resume();
    return { context: this.context, output: this.output, analyser: this.analyser };
  }

  /** A reply chunk from the socket. */
  push(header: AudioFrameHeader, bytes: Uint8Array): void {
    if (this.stopped.has(header.turnId)) return;
    const { context, analyser } = this.audio();
    let turn = this.turn;
    if (!turn || turn.id !== header.turnId) {
      // A new turn follows the previous one's audio (the schedule keeps going).
      if (turn) this.finish(turn, false);
      turn = {
        id: header.turnId,
        sources: [],
        chain: Promise.resolve(),
        started: false,
        complete: false,
        mouth: new StreamMouth(
          () => this.now(),
          new EnergyMouth(analyser),
          () => context.state === 'running',
        ),
      };
      this.turn = turn;
      // The benches split the voice-to-voice time at the first frame's arrival.
      performance.mark('parla:reply-frame');
    }
    const t = turn;
    const copy = bytes.slice();
    t.chain = t.chain
      .then(() => this.decode(context, header, copy))
      .then((buffer) => {
        if (this.turn !== t || !buffer) return;
        this.play(t, header, buffer);
      })
      .catch(() => undefined);
    if (header.last) this.complete(header.turnId);
  }

  /** The turn has no more audio (its last chunk, or assistant_done). */
  complete(turnId: string): void {
    const t = this.turn;
    if (!t || t.id !== turnId) return;
    t.complete = true;
    void t.chain.then(() => this.armEnd(t));
  }

  /** Silences a turn (or whatever plays) at once; the mouth rests in the same call. */
  stop(turnId?: string): void {
    const t = this.turn;
    if (turnId) this.stopped.add(turnId);
    if (!t || (turnId && t.id !== turnId)) return;
    this.stopped.add(t.id);
    this.finish(t, true);
  }

  close(): void {
    this.stop();
    void this.context?.close();
    this.context = null;
    this.clock = null;
    this.output = null;
    this.analyser = null;
  }

  /** The reply's clock (reply-clock.ts): where the context does not run (Firefox with no audio
   *  output device, or autoplay refused until a gesture) the wall clock stands in, so the lips,
   *  the captions and the turn's end still follow the reply. */
  private now(): number {
    return this.clock?.now() ?? 0;
  }

  /** The context has started running: the current turn's chunks, placed while it stood still,
   *  start again where the clock is now (what already passed was shown by the lips, unheard). */
  private placeAgain(): void {
    const t = this.turn;
    const context = this.context;
    if (!t || !context || !this.output || !this.clock) return;
    const now = this.now();
    const kept: Placed[] = [];
    for (const p of t.sources) {
      stopNode(p.node);
      if (p.start + p.buffer.duration <= now) continue;
      const node = context.createBufferSource();
      node.buffer = p.buffer;
      node.connect(this.output);
      node.start(this.clock.contextTime(Math.max(p.start, now)), Math.max(0, now - p.start));
      kept.push({ ...p, node });
    }
    t.sources = kept;
  }

  private async decode(context: AudioContext, header: AudioFrameHeader, bytes: Uint8Array): Promise<AudioBuffer | null> {
    if (!bytes.byteLength) return null;
    if (header.format === 'pcm16') {
      const samples = floatFromPcm16(bytes);
      if (!samples.length) return null;
      const buffer = context.createBuffer(1, samples.length, header.sampleRate ?? 24000);
      buffer.copyToChannel(samples, 0);
      return buffer;
    }
    return context.decodeAudioData(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  }

  private play(t: Turn, header: AudioFrameHeader, buffer: AudioBuffer): void {
    const { context, output } = this.audio();
    const start = this.schedule.place(this.now(), buffer.duration);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(output);
    source.start(this.clock!.contextTime(start));
    t.sources.push({ node: source, buffer, start });
    t.mouth.add(start, buffer.duration, chunkCues(header, this.language), { data: buffer.getChannelData(0), rate: buffer.sampleRate });
    if (!t.started) {
      t.started = true;
      this.driver.use(t.mouth);
      this.events.onStart?.(t.id);
    }
    if (t.complete) this.armEnd(t);
  }

  /** Ends the turn when its scheduled audio has played. */
  private armEnd(t: Turn): void {
    if (this.turn !== t || !t.complete) return;
    clearTimeout(t.timer);
    const left = this.context ? Math.max(0, this.schedule.end - this.now()) : 0;
    t.timer = setTimeout(
      () => {
        if (this.turn === t) this.finish(t, false);
      },
      left * 1000 + 50,
    );
  }

  private finish(t: Turn, interrupted: boolean): void {
    clearTimeout(t.timer);
    if (this.turn === t) this.turn = null;
    if (interrupted) {
      for (const s of t.sources) stopNode(s.node);
      this.schedule.reset();
    }
    if (this.driver.isUsing(t.mouth)) this.driver.use(null);
    if (t.started) this.events.onEnd?.(t.id, { interrupted });
  }
}

function stopNode(node: AudioBufferSourceNode): void {
  try {
    node.stop();
  } catch {
    // Not started yet.
  }
  node.disconnect();
}
