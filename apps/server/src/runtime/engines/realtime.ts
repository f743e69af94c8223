// Realtime speech-to-speech (OpenAI Realtime, Gemini Live): the server relays the user's audio
// and text to the provider's WebSocket and the provider's audio, transcripts and tool calls
// back, with the avatar's model, voice, instructions, greeting and realtime VAD settings.
// Approved functions are offered as tools and run in the sandbox.
import WebSocket from 'ws';
import type { Engine, EngineDeps, EngineEvent, EngineHost, OpenInfo, RealtimeConfig, ConversationInfo, TurnInput } from '../types';
import { ProviderError } from './provider-error';
import { AsyncQueue } from './queue';

type Json = Record<string, unknown>;

interface Sink {
  queue: AsyncQueue<EngineEvent> | null;
  turnId: string;
}

export class RealtimeEngine implements Engine {
  readonly kind = 'realtime' as const;
  private ws: WebSocket | null = null;
  private sink: Sink | null = null;
  private pending: Promise<void> | null = null;
  private audioSeq = 0;

  constructor(
    private readonly config: RealtimeConfig,
    private readonly deps: EngineDeps,
    private readonly host: EngineHost,
  ) {}

  async open(_session: ConversationInfo): Promise<OpenInfo> {
    const url = this.config.provider === 'openai' ? this.openAiUrl() : this.geminiUrl();
    // The guard speaks http(s): check the same host and port, then connect with ws(s).
    const checked = this.deps.outbound.check(url.replace(/^ws(s?):/i, 'http$1:'));
    const target = new URL(checked);
    target.protocol = checked.protocol === 'https:' ? 'wss:' : 'ws:';
    const headers: Record<string, string> =
      this.config.provider === 'openai' ? { authorization: `Bearer ${this.config.apiKey}`, 'openai-beta': 'realtime=v1' } : {};
    const ws = new WebSocket(target, {
      headers,
      handshakeTimeout: 15_000,
      maxPayload: 8 * 1024 * 1024,
      ...this.deps.outbound.wsOptions(checked),
    });
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) =>
        reject(
          new ProviderError(
            'Realtime',
            res.statusCode === 401 || res.statusCode === 403 ? 'the API key was refused' : `HTTP ${res.statusCode}`,
            res.statusCode,
          ),
        ),
      );
      ws.once('error', (err) => reject(new ProviderError('Realtime', err.message)));
    });
    ws.on('message', (data) => {
      let msg: Json;
      try {
        msg = JSON.parse(String(data)) as Json;
      } catch {
        return;
      }
      this.pending = (this.pending ?? Promise.resolve()).then(() => this.onMessage(msg)).catch((err: unknown) => this.failCurrent(err));
    });
    ws.on('close', () => this.failCurrent(new ProviderError('Realtime', 'the provider closed the connection')));
    ws.on('error', () => undefined);
    if (this.config.provider === 'openai') this.send({ type: 'session.update', session: this.openAiSession() });
    else this.send({ setup: this.geminiSetup() });
    return this.config.greeting ? { greeting: this.config.greeting } : {};
  }

  /** The greeting is asked for only after `ready` reached the player, so it cannot overtake it. */
  started(): void {
    if (this.config.greeting) this.greet(this.config.greeting);
  }

  private openAiUrl(): string {
    const u = new URL(this.config.url);
    if (!u.searchParams.has('model')) u.searchParams.set('model', this.config.model);
    return u.toString();
  }

  private geminiUrl(): string {
    const u = new URL(this.config.url);
    u.searchParams.set('key', this.config.apiKey);
    return u.toString();
  }

  private openAiSession(): Json {
    const tools = this.config.tools.filter((t) => t.approved);
    return {
      modalities: ['text', 'audio'],
      instructions: this.config.instructions,
      voice: this.config.voice,
      input_audio_format: 'pcm16',
      output_audio_format: 'pcm16',
      input_audio_transcription: { model: 'whisper-1' },
      turn_detection: {
        type: 'server_vad',
        threshold: this.config.vad.threshold,
        prefix_padding_ms: this.config.vad.prefixPaddingMs,
        silence_duration_ms: this.config.vad.silenceDurationMs,
      },
      ...(tools.length
        ? {
            tools: tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters })),
            tool_choice: 'auto',
          }
        : {}),
    };
  }

  private geminiSetup(): Json {
    const tools = this.config.tools.filter((t) => t.approved);
    const model = this.config.model.startsWith('models/') ? this.config.model : `models/${this.config.model}`;
    return {
      model,
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: this.config.voice } } },
      },
      systemInstruction: { parts: [{ text: this.config.instructions }] },
      outputAudioTranscription: {},
      inputAudioTranscription: {},
      realtimeInputConfig: {
        automaticActivityDetection: {
          prefixPaddingMs: this.config.vad.prefixPaddingMs,
          silenceDurationMs: this.config.vad.silenceDurationMs,
        },
      },
      ...(tools.length
        ? { tools: [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) }] }
        : {}),
    };
  }

  private send(msg: Json): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  private greet(text: string): void {
    if (this.config.provider === 'openai') {
      this.send({ type: 'response.create', response: { instructions: `Greet the user by saying exactly: ${text}` } });
    } else {
      this.send({
        clientContent: { turns: [{ role: 'user', parts: [{ text: `Greet me by saying exactly: ${text}` }] }], turnComplete: true },
      });
    }
  }

  /** The sink of provider output: the turn() waiting for it, or a turn the engine begins. */
  private current(): Sink {
    if (!this.sink) {
      this.sink = { queue: null, turnId: this.host.beginTurn() };
      this.audioSeq = 0;
    }
    return this.sink;
  }

  private emit(event: EngineEvent): void {
    const sink = this.current();
    if (sink.queue) sink.queue.push(event);
    else this.host.emit(sink.turnId, event);
  }

  private finish(error?: string): void {
    const sink = this.sink;
    this.sink = null;
    if (!sink) return;
    if (sink.queue) {
      if (error) sink.queue.fail(new ProviderError('Realtime', error));
      else sink.queue.end();
    } else this.host.endTurn(sink.turnId, error);
  }

  private failCurrent(err: unknown): void {
    if (this.sink) this.finish(err instanceof Error ? err.message : String(err));
  }

  private async onMessage(msg: Json): Promise<void> {
    if (this.config.provider === 'openai') await this.onOpenAi(msg);
    else await this.onGemini(msg);
  }

  private async onOpenAi(msg: Json): Promise<void> {
    const type = String(msg.type ?? '');
    switch (type) {
      case 'response.audio_transcript.delta':
      case 'response.output_audio_transcript.delta':
      case 'response.text.delta':
      case 'response.output_text.delta':
        if (typeof msg.delta === 'string') this.emit({ type: 'delta', text: msg.delta });
        break;
      case 'response.audio.delta':
      case 'response.output_audio.delta':
        if (typeof msg.delta === 'string') this.emit({ type: 'audio', format: 'pcm16', sampleRate: 24000, audio: msg.delta });
        break;
      case 'input_audio_buffer.speech_started':
        if (this.host.speaking()) this.host.interrupt();
        break;
      case 'conversation.item.input_audio_transcription.completed':
        if (typeof msg.transcript === 'string' && msg.transcript.trim()) this.host.transcript(msg.transcript, true);
        break;
      case 'response.function_call_arguments.done': {
        const name = String(msg.name ?? '');
        const args = String(msg.arguments ?? '{}');
        const output = await this.callTool(name, args);
        this.emit({ type: 'tool_call', name, arguments: args, result: output });
        this.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: msg.call_id, output } });
        this.pendingToolResponse = true;
        break;
      }
      case 'response.done': {
        const status = (msg.response as Json | undefined)?.status;
        if (this.pendingToolResponse) {
          // The model asked for a tool: its answer comes in the next response of the same turn.
          this.pendingToolResponse = false;
          this.send({ type: 'response.create' });
          break;
        }
        this.finish(status === 'failed' ? 'the response failed' : undefined);
        break;
      }
      case 'error': {
        const m = (msg.error as Json | undefined)?.message;
        this.finish(typeof m === 'string' ? m : 'provider error');
        break;
      }
      default:
        break;
    }
  }

  private pendingToolResponse = false;

  private async onGemini(msg: Json): Promise<void> {
    const content = msg.serverContent as Json | undefined;
    if (content) {
      if (content.interrupted && this.host.speaking()) this.host.interrupt();
      const parts = ((content.modelTurn as Json | undefined)?.parts as Json[] | undefined) ?? [];
      for (const p of parts) {
        const inline = p.inlineData as { data?: string; mimeType?: string } | undefined;
        if (inline?.data) {
          const rate = /rate=(\d+)/.exec(inline.mimeType ?? '')?.[1];
          this.emit({ type: 'audio', format: 'pcm16', sampleRate: rate ? Number(rate) : 24000, audio: inline.data });
        }
        if (typeof p.text === 'string') this.emit({ type: 'delta', text: p.text });
      }
      const heard = (content.inputTranscription as Json | undefined)?.text;
      if (typeof heard === 'string' && heard) this.host.transcript(heard, false);
      const out = (content.outputTranscription as Json | undefined)?.text;
      if (typeof out === 'string' && out) this.emit({ type: 'delta', text: out });
      if (content.turnComplete) this.finish();
    }
    const toolCall = msg.toolCall as { functionCalls?: { id?: string; name?: string; args?: unknown }[] } | undefined;
    if (toolCall?.functionCalls?.length) {
      const responses = [];
      for (const call of toolCall.functionCalls) {
        const args = JSON.stringify(call.args ?? {});
        const output = await this.callTool(call.name ?? '', args);
        this.emit({ type: 'tool_call', name: call.name ?? '', arguments: args, result: output });
        let response: unknown = output;
        try {
          response = JSON.parse(output);
        } catch {
          response = { result: output };
        }
        responses.push({
          id: call.id,
          name: call.name,
          response: typeof response === 'object' && response !== null ? response : { result: response },
        });
      }
      this.send({ toolResponse: { functionResponses: responses } });
    }
  }

  private async callTool(name: string, args: string): Promise<string> {
    const tool = this.config.tools.find((t) => t.name === name && t.approved);
    if (!tool) return JSON.stringify({ error: `No function named ${name}.` });
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(args || '{}');
    } catch {
      parsed = {};
    }
    return this.deps.runTool(tool, parsed);
  }

  turn(input: TurnInput): AsyncIterable<EngineEvent> {
    // A text turn: the reply streams into this turn's queue until the response is done.
    if (this.sink) this.finish();
    const queue = new AsyncQueue<EngineEvent>();
    this.sink = { queue, turnId: input.turnId };
    input.signal.addEventListener('abort', () => {
      if (this.config.provider === 'openai') this.send({ type: 'response.cancel' });
      if (this.sink?.queue === queue) this.sink = null;
      queue.end();
    });
    if (this.config.provider === 'openai') {
      this.send({
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: input.text }] },
      });
      this.send({ type: 'response.create' });
    } else {
      this.send({ clientContent: { turns: [{ role: 'user', parts: [{ text: input.text }] }], turnComplete: true } });
    }
    return queue;
  }

  audio(pcm: Buffer, sampleRate: number): void {
    if (this.config.provider === 'openai') this.send({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') });
    else this.send({ realtimeInput: { audio: { data: pcm.toString('base64'), mimeType: `audio/pcm;rate=${sampleRate}` } } });
  }

  async close(): Promise<void> {
    this.sink?.queue?.end();
    this.sink = null;
    this.ws?.close(1000);
    this.ws = null;
  }
}
