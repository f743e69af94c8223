// OpenAI assistants (interaction type "assistant"): one thread per conversation, each turn adds
// the user's message and streams a run (Assistants API v2 server-sent events). Retrieved
// knowledge goes in as the run's additional instructions.
import type { AssistantConfig, Engine, EngineDeps, EngineEvent, TurnInput } from '../types';
import { readSse } from '../sse';
import { joinUrl, knowledgeBlock } from './prompt';
import { failure, ProviderError } from './provider-error';

export class AssistantEngine implements Engine {
  readonly kind = 'assistant' as const;
  private threadId: string | null = null;

  constructor(
    private readonly config: AssistantConfig,
    private readonly deps: EngineDeps,
  ) {}

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', authorization: `Bearer ${this.config.apiKey}`, 'openai-beta': 'assistants=v2' };
  }

  private async thread(): Promise<string> {
    if (this.threadId) return this.threadId;
    const res = await this.deps.outbound.fetch(joinUrl(this.config.baseUrl, 'threads'), {
      method: 'POST',
      headers: this.headers(),
      body: '{}',
    });
    if (res.status !== 200) throw await failure('Assistants', res, [this.config.apiKey]);
    const id = res.json<{ id?: string }>().id;
    if (!id) throw new ProviderError('Assistants', 'no thread id in the answer');
    this.threadId = id;
    return id;
  }

  async *turn(input: TurnInput): AsyncIterable<EngineEvent> {
    const thread = await this.thread();
    const add = await this.deps.outbound.fetch(joinUrl(this.config.baseUrl, `threads/${encodeURIComponent(thread)}/messages`), {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({ role: 'user', content: input.text }),
    });
    if (add.status !== 200) throw await failure('Assistants', add, [this.config.apiKey]);
    const run: Record<string, unknown> = { assistant_id: this.config.assistantId, stream: true };
    const extra = [this.config.instructions ?? '', knowledgeBlock(input.context, input.knowledgeSearched)].filter(Boolean).join('\n\n');
    if (extra) run.additional_instructions = extra;
    const res = await this.deps.outbound.stream(joinUrl(this.config.baseUrl, `threads/${encodeURIComponent(thread)}/runs`), {
      method: 'POST',
      headers: { ...this.headers(), accept: 'text/event-stream' },
      body: JSON.stringify(run),
      timeoutMs: 120_000,
    });
    if (res.status !== 200) throw await failure('Assistants', res, [this.config.apiKey]);
    try {
      for await (const ev of readSse(res.body as AsyncIterable<Uint8Array> | null, input.signal)) {
        if (ev.event === 'done' || ev.data === '[DONE]') break;
        if (ev.event === 'thread.run.failed' || ev.event === 'error') {
          throw new ProviderError('Assistants', 'the run failed');
        }
        if (ev.event !== 'thread.message.delta') continue;
        let data: { delta?: { content?: { type: string; text?: { value?: string } }[] } };
        try {
          data = JSON.parse(ev.data) as typeof data;
        } catch {
          continue;
        }
        for (const part of data.delta?.content ?? []) {
          if (part.type === 'text' && part.text?.value) yield { type: 'delta', text: part.text.value };
        }
      }
    } finally {
      if (input.signal.aborted) await res.body?.cancel().catch(() => undefined);
    }
  }

  async close(): Promise<void> {}
}
