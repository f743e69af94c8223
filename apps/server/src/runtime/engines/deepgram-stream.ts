// Deepgram's streaming recognition (WS /v1/listen): audio goes up as it is spoken, interim and
// final transcripts come back; at the end of a turn `Finalize` flushes what is left. The custom
// pipeline uses it for Deepgram and falls back to the pre-recorded API when it cannot connect.
import WebSocket from 'ws';
import type { OutboundClient } from '../../lib/outbound';
import type { SttConfig } from '../types';
import { ProviderError } from './provider-error';
import { deepgramQuery } from './speech';

/** How long to wait for the last final transcript after Finalize. */
const FINALIZE_WAIT_MS = 1500;
const KEEPALIVE_MS = 5000;

export class DeepgramStream {
  private ws: WebSocket | null = null;
  private finals: string[] = [];
  private flushed: (() => void) | null = null;
  private keepalive: NodeJS.Timeout | null = null;

  constructor(
    private readonly outbound: OutboundClient,
    private readonly config: SttConfig,
    private readonly sampleRate: number,
    private readonly onInterim: (text: string) => void,
  ) {}

  async open(): Promise<void> {
    const q = deepgramQuery(this.config, this.sampleRate, { interim_results: 'true' });
    const checked = this.outbound.check(`${(this.config.apiBase ?? 'https://api.deepgram.com').replace(/\/+$/, '')}/v1/listen?${q}`);
    const target = new URL(checked);
    target.protocol = checked.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(target, {
      headers: { authorization: `Token ${this.config.apiKey}` },
      handshakeTimeout: 10_000,
      ...this.outbound.wsOptions(checked),
    });
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_r, res) => reject(new ProviderError('Deepgram', `HTTP ${res.statusCode}`, res.statusCode)));
      ws.once('error', (err) => reject(new ProviderError('Deepgram', err.message)));
    });
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let msg: { type?: string; is_final?: boolean; from_finalize?: boolean; channel?: { alternatives?: { transcript?: string }[] } };
      try {
        msg = JSON.parse(String(data)) as typeof msg;
      } catch {
        return;
      }
      if (msg.type !== 'Results') return;
      const text = msg.channel?.alternatives?.[0]?.transcript?.trim() ?? '';
      if (msg.is_final) {
        if (text) this.finals.push(text);
        if (msg.from_finalize) this.flushed?.();
      } else if (text) this.onInterim([...this.finals, text].join(' '));
    });
    ws.on('close', () => this.flushed?.());
    this.keepalive = setInterval(() => this.send({ type: 'KeepAlive' }), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  get open_(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  private send(msg: Record<string, unknown>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  audio(pcm: Buffer): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(pcm);
  }

  /** The utterance's text: Finalize, wait for the flushed final result, take the finals. */
  async finish(): Promise<string> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => resolve(), FINALIZE_WAIT_MS);
      this.flushed = () => {
        clearTimeout(timer);
        resolve();
      };
      this.send({ type: 'Finalize' });
    });
    this.flushed = null;
    const text = this.finals.join(' ').trim();
    this.finals = [];
    return text;
  }

  close(): void {
    if (this.keepalive) clearInterval(this.keepalive);
    this.send({ type: 'CloseStream' });
    this.ws?.close(1000);
    this.ws = null;
  }
}
