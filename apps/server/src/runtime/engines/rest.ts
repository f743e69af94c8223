// REST endpoint: the customer's URL receives LOGIN, CHAT and LOGOUT events with
// `Authorization: Bearer {restApiKey}`. CHAT's answer is the text to speak (empty allowed). The
// callback URL sent with every event lets the endpoint push messages into the live
// conversation later (POST {callbackUrl} {message}). The avatar's wake-up message arrives as the
// first CHAT, right after LOGIN (decision 620). With Send Chat History every event carries
// `history: [{role, text, at}]` (bounded: history-window.ts); with a remembered summary of the
// end user's last conversation every event carries `summary`; `language` is the agent language.
import type { ChatMessage, Engine, EngineDeps, EngineEvent, RestConfig, ConversationInfo, TurnInput } from '../types';
import { failure } from './provider-error';

export type RestEvent = 'LOGIN' | 'CHAT' | 'LOGOUT';

/** The text of a CHAT answer: a JSON object with one of the usual fields, or plain text. */
export function replyText(body: string, contentType: string | null): string {
  if (contentType?.includes('json')) {
    try {
      const v = JSON.parse(body) as unknown;
      if (typeof v === 'string') return v;
      if (v && typeof v === 'object') {
        for (const k of ['reply', 'message', 'text', 'answer', 'response']) {
          const f = (v as Record<string, unknown>)[k];
          if (typeof f === 'string') return f;
        }
      }
      return '';
    } catch {
      return body;
    }
  }
  return body;
}

export class RestEngine implements Engine {
  readonly kind = 'rest' as const;
  private session: ConversationInfo | null = null;
  private lastSeen: string;
  /** The conversation so far as the last turn was given it (events between turns carry it too). */
  private history: ChatMessage[] = [];

  constructor(
    private readonly config: RestConfig,
    private readonly deps: EngineDeps,
  ) {
    this.lastSeen = deps.now().toISOString();
  }

  private async post(event: RestEvent, message?: string) {
    const s = this.session!;
    this.lastSeen = this.deps.now().toISOString();
    return this.deps.outbound.fetch(this.config.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.config.apiKey}` },
      body: JSON.stringify({
        event,
        sessionId: s.sessionId,
        userId: s.userId,
        locale: s.locale,
        lastSeen: this.lastSeen,
        callbackUrl: s.callbackUrl,
        ...(this.config.memory ? { memory: this.config.memory } : {}),
        ...(this.config.language ? { language: this.config.language } : {}),
        ...(this.config.summary ? { summary: this.config.summary } : {}),
        ...(this.config.sendHistory ? { history: this.history.map((m) => ({ role: m.role, text: m.content, at: m.at ?? null })) } : {}),
        ...(message !== undefined ? { message } : {}),
      }),
      timeoutMs: 30_000,
      maxBytes: 256 * 1024,
    });
  }

  /** What a REST event carries that the endpoint must keep: the key and the callback secret. */
  private secrets(): string[] {
    const callback = this.session ? new URL(this.session.callbackUrl, 'http://x').searchParams.get('token') : null;
    return [this.config.apiKey, ...(callback ? [callback] : [])];
  }

  async open(session: ConversationInfo): Promise<void> {
    this.session = session;
    const res = await this.post('LOGIN');
    if (res.status >= 400) throw await failure('REST endpoint', res, this.secrets());
  }

  async *turn(input: TurnInput): AsyncIterable<EngineEvent> {
    this.history = input.history;
    const res = await this.post('CHAT', input.text);
    if (res.status >= 400) throw await failure('REST endpoint', res, this.secrets());
    if (input.signal.aborted) return;
    const text = replyText(res.text(), res.headers.get('content-type'));
    if (text) yield { type: 'delta', text };
  }

  async close(): Promise<void> {
    if (!this.session) return;
    await this.post('LOGOUT').catch((err: unknown) => this.deps.log.warn({ err: String(err) }, 'REST endpoint LOGOUT failed'));
  }
}
