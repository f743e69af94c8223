// Large language model: streamed chat completions from any OpenAI-compatible base URL (OpenAI,
// Groq, Gemini's OpenAI endpoint, ...). Instructions, memory, retrieved knowledge with sources,
// history and max tokens go into the request; approved functions are offered as tools and run
// in the sandbox, their results going back to the model.
import type { Engine, EngineDeps, EngineEvent, LlmConfig, TurnInput } from '../types';
import { readSse } from '../sse';
import { buildMessages, joinUrl, type OpenAiMessage, type OpenAiToolCall } from './prompt';
import { failure, ProviderError } from './provider-error';

/** Tool rounds per turn: a model that keeps calling tools gets its last answer used. */
const MAX_TOOL_ROUNDS = 4;
/** The longest a completion may stream in all (a model that trickles forever). */
const COMPLETION_MAX_MS = 120_000;

/** How long the model may be silent (decision 614): until its first event, then between two
 *  events of its stream. Past that the answer has failed; the visitor is told at once. */
export interface ModelTimeouts {
  firstTokenMs: number;
  stallMs: number;
}
export const DEFAULT_MODEL_TIMEOUTS: ModelTimeouts = { firstTokenMs: 20_000, stallMs: 8_000 };

/** Aborts when not poked for the time it was last given. */
class SilenceWatch {
  private readonly ctrl = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private waited = 0;

  constructor(ms: number) {
    this.poke(ms);
  }

  get signal(): AbortSignal {
    return this.ctrl.signal;
  }

  get fired(): boolean {
    return this.ctrl.signal.aborted;
  }

  /** Why it fired, for the log and the customer's error list. */
  get reason(): string {
    return `the model sent nothing for ${(this.waited / 1000).toFixed(1)} s`;
  }

  poke(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.waited = ms;
    this.timer = setTimeout(() => this.ctrl.abort(new Error(this.reason)), ms);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

interface ChunkChoice {
  delta?: { content?: string | null; tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[] };
  finish_reason?: string | null;
}

export class LlmEngine implements Engine {
  readonly kind = 'llm' as const;
  constructor(
    private readonly config: LlmConfig,
    private readonly deps: EngineDeps,
  ) {}

  async *turn(input: TurnInput): AsyncIterable<EngineEvent> {
    const messages: OpenAiMessage[] = buildMessages({
      instructions: this.config.instructions,
      memory: this.config.memory,
      context: input.context,
      knowledgeSearched: input.knowledgeSearched,
      history: input.history,
      sendHistory: this.config.sendHistory,
      text: input.text,
    });
    yield* this.complete(messages, input.signal);
  }

  /** Streams one completion, running tool calls until the model answers in text. */
  async *complete(messages: OpenAiMessage[], signal: AbortSignal): AsyncIterable<EngineEvent> {
    const tools = this.config.tools.filter((t) => t.approved);
    for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
      const body: Record<string, unknown> = { model: this.config.model, messages, stream: true };
      if (this.config.maxTokens) body.max_tokens = this.config.maxTokens;
      if (tools.length && round < MAX_TOOL_ROUNDS) {
        body.tools = tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.parameters },
        }));
      }
      const limits = this.deps.modelTimeouts ?? DEFAULT_MODEL_TIMEOUTS;
      const watch = new SilenceWatch(limits.firstTokenMs);
      // The reply's signal reaches the request too: a cut reply frees its connection at once.
      const abort = AbortSignal.any([signal, watch.signal, AbortSignal.timeout(COMPLETION_MAX_MS)]);
      const calls: OpenAiToolCall[] = [];
      let finish: string | null = null;
      let res: Awaited<ReturnType<EngineDeps['outbound']['stream']>>;
      try {
        res = await this.deps.outbound.stream(
          joinUrl(this.config.baseUrl, 'chat/completions'),
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${this.config.apiKey}` },
            body: JSON.stringify(body),
          },
          abort,
        );
      } catch (err) {
        watch.stop();
        if (signal.aborted) return;
        // A model that never answers is a failed answer after `firstTokenMs`; any other failure
        // (refused connection, the outbound guard) is reported as it is.
        throw watch.fired ? new ProviderError('LLM', watch.reason) : err;
      }
      try {
        if (res.status !== 200) throw await failure('LLM', res, [this.config.apiKey]);
        for await (const ev of readSse(res.body as AsyncIterable<Uint8Array> | null, signal)) {
          watch.poke(limits.stallMs);
          if (ev.data === '[DONE]') break;
          let chunk: { choices?: ChunkChoice[]; error?: { message?: string } };
          try {
            chunk = JSON.parse(ev.data) as typeof chunk;
          } catch {
            // A garbled stream is a failed answer, not an empty one (issue 34 item 3).
            throw new ProviderError('LLM', `the answer could not be read: ${ev.data.slice(0, 60).replace(/\s+/g, ' ')}`);
          }
          if (chunk.error) throw new ProviderError('LLM', chunk.error.message ?? 'stream error');
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const content = choice.delta?.content;
          if (content) yield { type: 'delta', text: content };
          for (const tc of choice.delta?.tool_calls ?? []) {
            const slot = (calls[tc.index] ??= { id: tc.id ?? `call_${tc.index}`, type: 'function', function: { name: '', arguments: '' } });
            if (tc.id) slot.id = tc.id;
            if (tc.function?.name) slot.function.name += tc.function.name;
            if (tc.function?.arguments) slot.function.arguments += tc.function.arguments;
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof ProviderError) throw err;
        if (watch.fired) throw new ProviderError('LLM', watch.reason);
        // The connection dropped or timed out mid-answer.
        throw new ProviderError('LLM', `the answer was cut off (${err instanceof Error ? err.message : String(err)})`);
      } finally {
        watch.stop();
      }
      if (signal.aborted || !calls.length || (finish && finish !== 'tool_calls')) return;
      messages.push({ role: 'assistant', content: null, tool_calls: calls });
      for (const call of calls) {
        const tool = tools.find((t) => t.name === call.function.name);
        let result: string;
        if (!tool) result = JSON.stringify({ error: `No function named ${call.function.name}.` });
        else {
          let args: unknown = {};
          try {
            args = call.function.arguments ? JSON.parse(call.function.arguments) : {};
          } catch {
            args = {};
          }
          result = await this.deps.runTool(tool, args);
        }
        yield { type: 'tool_call', name: call.function.name, arguments: call.function.arguments, result };
        messages.push({ role: 'tool', tool_call_id: call.id, content: result });
      }
    }
  }

  async close(): Promise<void> {}
}
