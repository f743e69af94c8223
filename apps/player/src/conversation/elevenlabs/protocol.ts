// ElevenLabs Conversational AI over WebSocket, the protocol only (no audio devices): the player
// opens the signed URL the server issued, sends conversation_initiation_client_data, waits for
// conversation_initiation_metadata (the audio formats both ways), then streams the microphone as
// user_audio_chunk frames and receives the agent's audio events (PCM or μ-law, base64, numbered
// by event_id, with character alignment when the agent sends it), its text (agent_response and
// its corrections), the user's transcript, interruptions and pings (answered at once with a pong
// of the same event_id). Typed text goes as user_message. Client tools are not offered, so a
// client_tool_call is answered with an error result instead of leaving the agent waiting.

/** An audio format of the conversation: "pcm_16000", "ulaw_8000", ... */
export interface AudioFormat {
  encoding: 'pcm' | 'ulaw';
  sampleRate: number;
}

export function parseAudioFormat(value: string | undefined, fallback: AudioFormat = { encoding: 'pcm', sampleRate: 16000 }): AudioFormat {
  const m = /^(pcm|ulaw)_(\d{4,6})$/.exec(value ?? '');
  if (!m) return fallback;
  return { encoding: m[1] as AudioFormat['encoding'], sampleRate: Number(m[2]) };
}

/** Character alignment of an audio event, milliseconds from the event's first sample. */
export interface Alignment {
  chars: string[];
  charStartTimesMs: number[];
  charDurationsMs: number[];
}

export interface AgentAudio {
  eventId: number;
  /** Mono samples as floats in -1..1. */
  samples: Float32Array;
  sampleRate: number;
  alignment?: Alignment;
}

export interface ElevenLabsEvents {
  onStarted?(info: { conversationId: string; input: AudioFormat; output: AudioFormat }): void;
  onAudio?(audio: AgentAudio): void;
  onAgentResponse?(text: string): void;
  /** The agent was interrupted: what it really said replaces what it meant to say. */
  onAgentCorrection?(original: string, corrected: string): void;
  onUserTranscript?(text: string): void;
  /** The user spoke over the agent: its audio so far stops; older audio events are void. */
  onInterruption?(eventId: number): void;
  onClose?(info: { code: number; reason: string; clean: boolean }): void;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const numbers = (v: unknown): number[] => (Array.isArray(v) ? v.map(num) : []);

export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** G.711 μ-law byte → linear sample in -1..1. */
export function ulawToFloat(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 7;
  const magnitude = ((u & 0x0f) << 3) + 0x84;
  const linear = (magnitude << exponent) - 0x84;
  return (u & 0x80 ? -linear : linear) / 32768;
}

export function decodeAudio(bytes: Uint8Array, format: AudioFormat): Float32Array {
  if (format.encoding === 'ulaw') return Float32Array.from(bytes, ulawToFloat);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

/** Float samples → 16-bit little-endian PCM. */
export function floatToPcm16(samples: Float32Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return out;
}

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string; wasClean: boolean }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

const OPEN = 1;

export class ElevenLabsSocket {
  private ws: SocketLike | null = null;
  private output: AudioFormat = { encoding: 'pcm', sampleRate: 16000 };
  private started = false;
  private ended = false;
  /** Audio events numbered below the last interruption's id belong to interrupted replies. */
  private interruptedAt = 0;

  constructor(
    private readonly url: string,
    private readonly events: ElevenLabsEvents,
    private readonly open: (url: string) => SocketLike = (u) => new WebSocket(u) as unknown as SocketLike,
  ) {}

  /** Resolves once the conversation has started (metadata received); rejects when it could not. */
  start(initiation: Json = {}): Promise<void> {
    const ws = this.open(this.url);
    this.ws = ws;
    return new Promise((resolve, reject) => {
      ws.onopen = () => ws.send(JSON.stringify({ type: 'conversation_initiation_client_data', ...initiation }));
      ws.onmessage = (ev) => {
        if (typeof ev.data !== 'string') return;
        let msg: Json;
        try {
          msg = obj(JSON.parse(ev.data));
        } catch {
          return;
        }
        if (msg.type === 'conversation_initiation_metadata') resolve();
        this.handle(msg);
      };
      ws.onerror = () => undefined;
      ws.onclose = (ev) => {
        this.ws = null;
        if (!this.started) reject(new Error(ev.reason || `The agent refused the conversation (code ${ev.code}).`));
        if (this.ended) return;
        this.ended = true;
        this.events.onClose?.({ code: ev.code, reason: ev.reason, clean: ev.code === 1000 });
      };
    });
  }

  get isOpen(): boolean {
    return this.started && this.ws?.readyState === OPEN;
  }

  private send(msg: Json): void {
    if (this.ws?.readyState === OPEN) this.ws.send(JSON.stringify(msg));
  }

  private handle(msg: Json): void {
    const e = this.events;
    switch (msg.type) {
      case 'conversation_initiation_metadata': {
        const m = obj(msg.conversation_initiation_metadata_event);
        this.output = parseAudioFormat(str(m.agent_output_audio_format));
        this.started = true;
        e.onStarted?.({
          conversationId: str(m.conversation_id),
          input: parseAudioFormat(str(m.user_input_audio_format)),
          output: this.output,
        });
        break;
      }
      case 'audio': {
        const a = obj(msg.audio_event);
        const eventId = num(a.event_id);
        const b64 = str(a.audio_base_64);
        if (!b64 || eventId < this.interruptedAt) break;
        const al = a.alignment ? obj(a.alignment) : null;
        const chars = al && Array.isArray(al.chars) ? al.chars.map(str) : [];
        const alignment: Alignment | undefined = chars.length
          ? { chars, charStartTimesMs: numbers(al!.char_start_times_ms), charDurationsMs: numbers(al!.char_durations_ms) }
          : undefined;
        e.onAudio?.({
          eventId,
          samples: decodeAudio(base64ToBytes(b64), this.output),
          sampleRate: this.output.sampleRate,
          ...(alignment ? { alignment } : {}),
        });
        break;
      }
      case 'agent_response': {
        const text = str(obj(msg.agent_response_event).agent_response);
        if (text) e.onAgentResponse?.(text);
        break;
      }
      case 'agent_response_correction': {
        const c = obj(msg.agent_response_correction_event);
        e.onAgentCorrection?.(str(c.original_agent_response), str(c.corrected_agent_response));
        break;
      }
      case 'user_transcript': {
        const text = str(obj(msg.user_transcription_event).user_transcript);
        if (text.trim()) e.onUserTranscript?.(text);
        break;
      }
      case 'interruption': {
        const id = num(obj(msg.interruption_event).event_id);
        this.interruptedAt = Math.max(this.interruptedAt, id);
        e.onInterruption?.(id);
        break;
      }
      case 'ping': {
        const p = obj(msg.ping_event);
        this.send({ type: 'pong', event_id: num(p.event_id) });
        break;
      }
      case 'client_tool_call': {
        const call = obj(msg.client_tool_call);
        this.send({
          type: 'client_tool_result',
          tool_call_id: str(call.tool_call_id),
          result: `The tool ${str(call.tool_name)} is not available in this player.`,
          is_error: true,
        });
        break;
      }
      default:
        break;
    }
  }

  /** Microphone audio in the input format (16-bit PCM bytes). */
  sendAudio(pcm: Uint8Array): void {
    if (this.started) this.send({ user_audio_chunk: bytesToBase64(pcm) });
  }

  sendText(text: string): void {
    this.send({ type: 'user_message', text });
  }

  /** The user is typing or otherwise active: the agent should not talk over them. */
  sendActivity(): void {
    this.send({ type: 'user_activity' });
  }

  close(): void {
    this.ended = true;
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, 'The user ended the conversation');
  }
}
