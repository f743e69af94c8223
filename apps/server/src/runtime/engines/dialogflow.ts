// Dialogflow ES (v2) and CX (v3): detectIntent over REST with a service-account access token.
// One Dialogflow session per conversation (the conversation's id). With Send Chat History the
// conversation so far goes with each query: CX as the session parameter `history`, ES (which
// has no session parameters) in the query's `payload.history` (decision 620).
import type { DialogflowConfig, Engine, EngineDeps, EngineEvent, ConversationInfo, TurnInput } from '../types';
import { DIALOGFLOW_SCOPES, GoogleTokenSource } from './google-auth';
import { failure } from './provider-error';

export function dialogflowApiBase(config: DialogflowConfig): string {
  if (config.apiBase) return config.apiBase.replace(/\/+$/, '');
  if (config.kind === 'dialogflow_cx' && config.regionId && config.regionId !== 'global') {
    return `https://${config.regionId}-dialogflow.googleapis.com`;
  }
  return 'https://dialogflow.googleapis.com';
}

export class DialogflowEngine implements Engine {
  readonly kind: DialogflowConfig['kind'];
  private readonly tokens: GoogleTokenSource;
  private sessionId = 'session';
  /** Aborted when the engine closes (the conversation ended): pending token retries stop. */
  private readonly closed = new AbortController();

  constructor(
    private readonly config: DialogflowConfig,
    private readonly deps: EngineDeps,
  ) {
    this.kind = config.kind;
    this.tokens = new GoogleTokenSource(config.serviceAccount, DIALOGFLOW_SCOPES, deps.outbound, deps.now);
  }

  async open(session: ConversationInfo): Promise<void> {
    this.sessionId = session.sessionId;
    await this.tokens.get(this.closed.signal);
  }

  private url(): string {
    const c = this.config;
    const p = encodeURIComponent(c.projectId);
    const s = encodeURIComponent(this.sessionId);
    if (c.kind === 'dialogflow_es') return `${dialogflowApiBase(c)}/v2/projects/${p}/agent/sessions/${s}:detectIntent`;
    const region = encodeURIComponent(c.regionId || 'global');
    return `${dialogflowApiBase(c)}/v3/projects/${p}/locations/${region}/agents/${encodeURIComponent(c.agentId ?? '')}/sessions/${s}:detectIntent`;
  }

  async *turn(input: TurnInput): AsyncIterable<EngineEvent> {
    const token = await this.tokens.get(AbortSignal.any([input.signal, this.closed.signal]));
    const history = this.config.sendHistory ? input.history.map((m) => ({ role: m.role, text: m.content, at: m.at ?? null })) : null;
    const body =
      this.config.kind === 'dialogflow_es'
        ? {
            queryInput: { text: { text: input.text, languageCode: this.config.language } },
            ...(history ? { queryParams: { payload: { history } } } : {}),
          }
        : {
            queryInput: { text: { text: input.text }, languageCode: this.config.language },
            ...(history ? { queryParams: { parameters: { history } } } : {}),
          };
    const res = await this.deps.outbound.fetch(this.url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw await failure('Dialogflow', res, [token]);
    if (input.signal.aborted) return;
    const text = this.config.kind === 'dialogflow_es' ? esText(res.json()) : cxText(res.json());
    if (text) yield { type: 'delta', text };
  }

  async close(): Promise<void> {
    this.closed.abort(new Error('conversation ended'));
  }
}

interface EsAnswer {
  queryResult?: { fulfillmentText?: string; fulfillmentMessages?: { text?: { text?: string[] } }[] };
}
interface CxAnswer {
  queryResult?: { responseMessages?: { text?: { text?: string[] } }[] };
}

function esText(a: EsAnswer): string {
  const q = a.queryResult;
  if (q?.fulfillmentText) return q.fulfillmentText;
  return (q?.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []).join(' ');
}

function cxText(a: CxAnswer): string {
  return (a.queryResult?.responseMessages ?? []).flatMap((m) => m.text?.text ?? []).join(' ');
}
