// POST /api/proxy (spec 3 §7 "General proxy to third-party services"): GET requests to an
// allow-list of provider hosts and paths only (Deepgram, Neuphonic, ElevenLabs, Cartesia, OpenAI,
// Gemini and the other LLM base URLs, as this server reaches them), through the SSRF-guarded
// client. Exact paths, no credentials in the URL, a fixed set of headers. A masked key is
// replaced by the avatar's stored key when that key belongs to the host called, and the stored
// key is scrubbed from the answer.
import { AvatarEngine } from '@parla/shared/enums';
import { BRAIN_MESSAGES, type ProxyResponse, type SecretRef } from '@parla/shared/schemas/brain';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { realtimeProviderForUrl } from '@parla/shared/provider-urls';
import { SECRET_MASK_PREFIX } from '@parla/shared/schemas/brain-forms';
import type { z } from 'zod';
import type { proxyRequest } from '@parla/shared/schemas/brain';
import { AppError } from '../../lib/errors';
import { mask } from '../../lib/secrets';
import { callProvider, notAllowed } from './provider-call';
import { obj, resolveKey, type KeyScope, type Loose } from './stored-keys';

export interface ProxyRule {
  provider: string;
  origin: string;
  paths: string[];
  /** Stored keys this host may receive. */
  secretRefs: SecretRef[];
}

function split(base: string): { origin: string; path: string } {
  const u = new URL(base);
  return { origin: u.origin, path: u.pathname.replace(/\/+$/, '') };
}

export function proxyRules(c: BrainCatalogue): ProxyRule[] {
  const rules: ProxyRule[] = [];
  const add = (provider: string, base: string, paths: string[], secretRefs: SecretRef[]) => {
    const { origin, path } = split(base);
    rules.push({ provider, origin, paths: paths.map((p) => `${path}${p}`), secretRefs });
  };
  add('deepgram', c.endpoints.deepgram, ['/models', '/auth/token'], ['stt']);
  add('neuphonic', c.endpoints.neuphonic, ['/voices'], ['tts']);
  add(
    'elevenlabs',
    c.endpoints.elevenlabs,
    ['/voices', '/models', '/convai/conversation/token', '/convai/conversation/get-signed-url'],
    ['tts', 'third_party'],
  );
  add('cartesia', c.endpoints.cartesia, ['/voices'], ['tts']);
  for (const p of c.llmProviders) {
    add(p.id, p.baseUrl, p.assistants ? ['/models', '/assistants'] : ['/models'], ['llm', 'realtime']);
    if (p.modelsUrl !== `${p.baseUrl}/models`) add(p.id, p.modelsUrl, [''], ['llm', 'realtime']);
  }
  return rules;
}

/** Headers a look-up may need; anything else is refused. */
export const PROXY_HEADERS = new Set(['accept', 'authorization', 'x-api-key', 'xi-api-key', 'openai-beta', 'cartesia-version']);

/** The checked URL and the rule it matches; throws for anything off the allow-list. */
export function matchRule(
  rules: ProxyRule[],
  raw: string,
  params: Record<string, string | number | boolean> = {},
): { url: URL; rule: ProxyRule } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw AppError.invalid(BRAIN_MESSAGES.notValidUrl);
  }
  // Encoded slashes or dots could name another path on the provider than the one checked.
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username ||
    url.password ||
    url.hash ||
    /%2e|%2f|%5c/i.test(url.pathname)
  )
    throw notAllowed();
  const path = url.pathname.replace(/\/+$/, '');
  const rule = rules.find((r) => r.origin === url.origin && r.paths.includes(path));
  if (!rule) throw notAllowed();
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  return { url, rule };
}

const MASKED = new RegExp(`${SECRET_MASK_PREFIX}\\S*`, 'g');

/** The origin a stored key belongs to, from the avatar's saved pipeline. */
function ownerOrigin(c: BrainCatalogue, pipeline: Loose, engine: number, ref: SecretRef): string | null {
  const origin = (u: string | undefined | null) => {
    try {
      return u ? new URL(u).origin : null;
    } catch {
      return null;
    }
  };
  const provider = (block: string) => String(obj(pipeline[block]).provider ?? '');
  switch (ref) {
    case 'stt':
      return provider('stt') === 'deepgram' ? origin(c.endpoints.deepgram) : null;
    case 'tts': {
      const p = provider('tts');
      return p === 'elevenlabs' || p === 'cartesia' || p === 'neuphonic' ? origin(c.endpoints[p]) : null;
    }
    case 'third_party':
      return engine === AvatarEngine.ElevenLabsConversationAI ? origin(c.endpoints.elevenlabs) : null;
    case 'llm': {
      const base = String(obj(pipeline.llm).base_url ?? '').replace(/\/+$/, '');
      return c.llmProviders.some((p) => p.baseUrl === base) ? origin(base) : null;
    }
    case 'realtime': {
      const rt = realtimeProviderForUrl(c, String(pipeline.url ?? ''));
      return origin(c.llmProviders.find((p) => p.id === rt?.id)?.baseUrl);
    }
    default:
      return null;
  }
}

export async function proxy(scope: KeyScope, catalogue: BrainCatalogue, body: z.infer<typeof proxyRequest>): Promise<ProxyResponse> {
  const { url, rule } = matchRule(proxyRules(catalogue), body.url, {});
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(body.headers ?? {})) {
    const n = name.toLowerCase();
    if (!PROXY_HEADERS.has(n)) throw AppError.invalid(`The header ${name.slice(0, 40)} cannot be sent through the proxy.`, 'PROXY_HEADER');
    if (/[\r\n]/.test(value)) throw AppError.invalid(`The header ${name.slice(0, 40)} is invalid.`, 'PROXY_HEADER');
    headers[n] = value;
  }
  const params: Record<string, string> = Object.fromEntries(Object.entries(body.params ?? {}).map(([k, v]) => [k, String(v)]));

  // A masked value anywhere stands for the avatar's stored key of `secretRef`.
  const masked = [...Object.values(headers), ...Object.values(params)].some((v) => v.includes(SECRET_MASK_PREFIX));
  let secret: string | undefined;
  if (masked) {
    const ref = body.secretRef;
    if (!ref || !rule.secretRefs.includes(ref)) throw AppError.invalid(BRAIN_MESSAGES.storedKeyMissing, 'STORED_KEY_MISSING');
    secret = await resolveKey(
      scope,
      SECRET_MASK_PREFIX,
      ref,
      (pipeline, engine) => ownerOrigin(catalogue, pipeline, engine, ref) === url.origin,
    );
    for (const k of Object.keys(headers)) headers[k] = headers[k]!.replace(MASKED, secret!);
    for (const k of Object.keys(params)) params[k] = params[k]!.replace(MASKED, secret!);
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);

  const answer = await callProvider(scope.ctx, url.toString(), headers);
  let data = answer.data;
  if (secret) {
    const text = JSON.stringify(data ?? null)
      .split(secret)
      .join(mask(secret));
    data = JSON.parse(text) as unknown;
  }
  return { status: 'OK', httpStatus: answer.status, data };
}
