// One loopback server standing in for every provider the brain looks up, each under its own
// path prefix, and the PROVIDER_URL_OVERRIDES that point the real hosts at it. Every request is
// recorded (method, path, headers) so tests can check what reached the "provider".
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { azureSpeechHandler } from './azure-speech';
import { cartesiaHandler } from './cartesia';
import { deepgramHandler } from './deepgram';
import { elevenLabsHandler } from './elevenlabs';
import { geminiHandler } from './gemini';
import { json, type Handler } from './http';
import { neuphonicHandler } from './neuphonic';
import { openAiHandler } from './openai';
import { pollyHandler } from './polly';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface ProviderStandIns {
  port: number;
  origin: string;
  /** host:port for OUTBOUND_ALLOW. */
  allow: string;
  /** The value of PROVIDER_URL_OVERRIDES. */
  overrides: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startProviderStandIns(port = 0): Promise<ProviderStandIns> {
  let bound = 0;
  const routes: [prefix: string, handler: Handler][] = [
    ['/openai', openAiHandler()],
    ['/groq', openAiHandler()],
    ['/gemini', geminiHandler()],
    ['/deepgram', deepgramHandler()],
    ['/azure', azureSpeechHandler()],
    ['/polly', pollyHandler(() => bound, '/polly/')],
    ['/elevenlabs', elevenLabsHandler()],
    ['/cartesia', cartesiaHandler()],
    ['/neuphonic', neuphonicHandler()],
  ];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const header = (name: string) => {
      const v = req.headers[name.toLowerCase()];
      return Array.isArray(v) ? v.join(',') : (v ?? '');
    };
    for (const [prefix, handle] of routes) {
      if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) continue;
      if (handle({ req, res, path: url.pathname.slice(prefix.length) || '/', query: url.searchParams, header })) return;
    }
    json(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  bound = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${bound}`;
  const overrides = [
    `api.openai.com=${origin}/openai`,
    `api.groq.com=${origin}/groq`,
    `generativelanguage.googleapis.com=${origin}/gemini`,
    `api.deepgram.com=${origin}/deepgram`,
    `{region}.tts.speech.microsoft.com=${origin}/azure/{region}`,
    `polly.{region}.amazonaws.com=${origin}/polly/{region}`,
    `api.elevenlabs.io=${origin}/elevenlabs`,
    `api.cartesia.ai=${origin}/cartesia`,
    `api.neuphonic.com=${origin}/neuphonic`,
  ].join(',');
  return {
    port: bound,
    origin,
    allow: `127.0.0.1:${bound}`,
    overrides,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
