// The one HTTP client for every server-side request to a URL a user could influence.
// It refuses anything but public unicast addresses: IP literals are checked here (a DNS hook is
// not called for them), names are checked in the connection's own lookup (so a name cannot
// resolve to one address for the check and another for the connection), and every redirect hop
// goes through the same check. Tests reach loopback stand-ins through an explicit host:port
// allow-list (OUTBOUND_ALLOW). See docs/decisions/004-outbound-guard.md.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch, type RequestInit, type Response } from 'undici';
import { DEFAULT_RETRY, retryAfterMs, retrying, TransientFailure, type RetryPolicy } from './retry';

export class OutboundRefused extends Error {
  constructor(readonly reason: string) {
    super(`Outbound request refused: ${reason}`);
    this.name = 'OutboundRefused';
  }
}

export class OutboundFailed extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundFailed';
  }
}

export interface OutboundPolicy {
  /** "host:port" pairs that may be reached although private (loopback stand-ins in tests). */
  allow: string[];
  /** Development escape hatch: allow every address. Off by default. */
  allowPrivate: boolean;
  /** DNS resolution (tests give names fixed answers); node:dns lookup by default. */
  resolve?: (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
  /** How `fetchIdempotent` retries (lib/retry.ts); DEFAULT_RETRY by default. */
  retry?: RetryPolicy;
}

export interface OutboundRequest extends Omit<RequestInit, 'redirect' | 'dispatcher' | 'signal'> {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Cancels the request (a conversation's end); the timeout still applies. */
  abort?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  url: string;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa', '.lan', '.intranet', '.corp'];

const GLOBAL_UNICAST_V6 = ipaddr.parse('2000::') as ipaddr.IPv6;

/** Rewrites a trailing dotted quad of an IPv6 text as two hex groups ("::1.2.3.4" → "::102:304"),
 *  because ipaddr.js reads every "::a.b.c.d" as IPv4-mapped, also the IPv4-compatible form that
 *  glibc prints for ::/96 (which is not mapped and must be refused). */
function hexTail(address: string): string {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!m) return address;
  const [a, b, c, d] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
  if ([a, b, c, d].some((n) => n > 255)) return address;
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** Whether an address (v4 or v6, any textual form ipaddr accepts) is public unicast. IPv4-mapped
 *  IPv6 is judged by its IPv4 address; any other IPv6 must be global unicast (2000::/3) and not in
 *  a special range, so IPv4-compatible (::/96), NAT64, 6to4, Teredo and documentation are refused. */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.includes(':') ? hexTail(address) : address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
    return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6, 3);
  }
  return parsed.range() === 'unicast';
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

export class OutboundClient {
  private readonly allow: Set<string>;
  private readonly guardedAgent: Agent;
  private readonly openAgent: Agent;
  /** Set once the process shuts down: the longest any new call may take (decision 014). */
  private shutdownCapMs: number | null = null;

  constructor(private readonly policy: OutboundPolicy) {
    this.allow = new Set(policy.allow.map((a) => a.trim().toLowerCase()).filter(Boolean));
    this.guardedAgent = new Agent({ connect: { lookup: this.lookup }, headersTimeout: 30_000, bodyTimeout: 60_000 });
    this.openAgent = new Agent({ headersTimeout: 30_000, bodyTimeout: 60_000 });
  }

  /** Whether this exact host:port is on the test allow-list. */
  isAllowListed(url: URL): boolean {
    return (
      this.allow.has(`${stripBrackets(url.hostname).toLowerCase()}:${defaultPort(url)}`) ||
      this.allow.has(`${url.hostname.toLowerCase()}:${defaultPort(url)}`)
    );
  }

  /** Parses and checks a URL before any connection. Throws OutboundRefused. */
  check(raw: string | URL): URL {
    let url: URL;
    try {
      url = typeof raw === 'string' ? new URL(raw) : raw;
    } catch {
      throw new OutboundRefused('not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused('only http and https are allowed');
    if (this.policy.allowPrivate || this.isAllowListed(url)) return url;
    const host = stripBrackets(url.hostname).toLowerCase().replace(/\.$/, '');
    if (!host) throw new OutboundRefused('no host');
    if (ipaddr.isValid(host)) {
      if (!isPublicAddress(host)) throw new OutboundRefused('private or reserved address');
      return url;
    }
    if (host === 'localhost' || BLOCKED_SUFFIXES.some((s) => host.endsWith(s))) {
      throw new OutboundRefused('internal host name');
    }
    if (!host.includes('.')) throw new OutboundRefused('single-label host name');
    return url;
  }

  /** A DNS lookup that fails when any resolved address is not public unicast. Usable as the
   *  `lookup` option of net, http, https and ws connections. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const resolve =
      this.policy.resolve ??
      ((name: string, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
        dnsLookup(name, { ...options, all: true }, (err, a) => cb(err, (a ?? []) as LookupAddress[])));
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses;
      const bad = list.find((a) => !isPublicAddress(a.address));
      if (bad || list.length === 0) {
        const refused = Object.assign(new OutboundRefused('host resolves to a private or reserved address'), { code: 'EREFUSED_PRIVATE' });
        return callback(refused, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };

  /** Options for a `ws` WebSocket client to a checked URL. */
  wsOptions(url: URL): { lookup?: LookupFunction } {
    return this.policy.allowPrivate || this.isAllowListed(url) ? {} : { lookup: this.lookup };
  }

  /** A streaming request (server-sent events, audio). Redirects are followed with the check. */
  async stream(raw: string | URL, init: OutboundRequest = {}, timeout?: AbortSignal): Promise<Response> {
    const { timeoutMs = 30_000, maxRedirects = 5, abort: _abort, ...rest } = init;
    let url = this.check(raw);
    let method = (rest.method ?? 'GET').toUpperCase();
    let body = rest.body;
    const signal = this.bounded(timeout ?? AbortSignal.timeout(timeoutMs));
    for (let hop = 0; ; hop++) {
      let res: Response;
      try {
        res = await undiciFetch(url, {
          ...rest,
          method,
          body,
          redirect: 'manual',
          signal,
          dispatcher: this.policy.allowPrivate || this.isAllowListed(url) ? this.openAgent : this.guardedAgent,
        });
      } catch (err) {
        throw unwrapFetchError(err, signal);
      }
      if (res.status < 300 || res.status >= 400 || !res.headers.get('location')) return res;
      await res.body?.cancel();
      if (hop >= maxRedirects) throw new OutboundFailed('too many redirects');
      url = this.check(new URL(res.headers.get('location')!, url));
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method !== 'GET' && method !== 'HEAD')) {
        method = 'GET';
        body = undefined;
      }
    }
  }

  /** A buffered request with a size cap (default 5 MB) and a timeout (default 15 s). */
  async fetch(raw: string | URL, init: OutboundRequest = {}): Promise<OutboundResponse> {
    const { maxBytes = 5 * 1024 * 1024, timeoutMs = 15_000 } = init;
    const timeout = this.bounded(AbortSignal.timeout(timeoutMs));
    const signal = init.abort ? AbortSignal.any([timeout, init.abort]) : timeout;
    const res = await this.stream(raw, { ...init, timeoutMs }, signal);
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await res.body?.cancel();
      throw new OutboundFailed('response too large', res.status);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body ?? []) {
        size += (chunk as Uint8Array).byteLength;
        if (size > maxBytes) throw new OutboundFailed('response too large', res.status);
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
    } catch (err) {
      if (err instanceof OutboundFailed) throw err;
      throw unwrapFetchError(err, signal);
    }
    const body = Buffer.concat(chunks);
    return {
      status: res.status,
      headers: res.headers as unknown as Headers,
      url: res.url,
      body,
      text: () => body.toString('utf8'),
      json: <T>() => JSON.parse(body.toString('utf8')) as T,
    };
  }

  /** `fetch` for a request that is safe to repeat (decision 010): a 429 or 5xx answer and a
   *  failed connection or timeout are tried again with backoff (Retry-After honoured); any other
   *  answer is returned as it is, a refusal of the guard thrown at once. `what` names the
   *  provider in the error when the attempts run out. */
  fetchIdempotent(what: string, raw: string | URL, init: OutboundRequest = {}): Promise<OutboundResponse> {
    const policy = this.policy.retry ?? DEFAULT_RETRY;
    return retrying(
      what,
      policy,
      async () => {
        let res: OutboundResponse;
        try {
          res = await this.fetch(raw, init);
        } catch (err) {
          // Not again while shutting down: the process is going away.
          if (err instanceof OutboundFailed && err.status === undefined && !init.abort?.aborted && this.shutdownCapMs === null)
            throw new TransientFailure(err.message);
          throw err;
        }
        if (res.status === 429 || res.status >= 500)
          throw new TransientFailure(`HTTP ${res.status}`, retryAfterMs(res.headers.get('retry-after')));
        return res;
      },
      init.abort,
    );
  }

  /** A new call's time limit: its own, or the shutdown's when shorter. */
  private bounded(signal: AbortSignal): AbortSignal {
    return this.shutdownCapMs === null ? signal : AbortSignal.any([signal, AbortSignal.timeout(this.shutdownCapMs)]);
  }

  /** The process shuts down: every call made from now on lasts at most `ms`, and calls already
   *  running (a download, a reply) are dropped `ms` from now. */
  shutdown(ms: number): void {
    if (this.shutdownCapMs !== null) return;
    this.shutdownCapMs = ms;
    setTimeout(() => void this.drop(), ms).unref();
  }

  private dropped: Promise<void> | null = null;

  private drop(): Promise<void> {
    this.dropped ??= Promise.all([this.guardedAgent.destroy(), this.openAgent.destroy()]).then(
      () => undefined,
      () => undefined,
    );
    return this.dropped;
  }

  /** Waits a short while for running calls, then drops whatever is left (a hanging endpoint
   *  must not hold the process). */
  async close(): Promise<void> {
    this.shutdown(2_000);
    if (this.dropped) return void (await this.dropped);
    const closed = Promise.all([this.guardedAgent.close(), this.openAgent.close()]).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, this.shutdownCapMs! + 500)))]);
    clearTimeout(timer);
    await this.drop();
  }
}

/** The request's failure as ours: a refusal of the guard as it is, the timeout (its signal
 *  fired — not matched by the error's name) or any other failure. */
function unwrapFetchError(err: unknown, timeout: AbortSignal): Error {
  let e: unknown = err;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    if (e instanceof OutboundRefused) return e;
    e = (e as { cause?: unknown }).cause;
  }
  if (timeout.aborted) return new OutboundFailed('request timed out');
  return new OutboundFailed(err instanceof Error ? `request failed: ${err.message}` : 'request failed');
}

export function outboundPolicyFromConfig(
  cfg: { OUTBOUND_ALLOW: string; OUTBOUND_ALLOW_PRIVATE: boolean } & Partial<RetryConfig>,
): OutboundPolicy {
  return { allow: cfg.OUTBOUND_ALLOW.split(','), allowPrivate: cfg.OUTBOUND_ALLOW_PRIVATE, retry: retryPolicyFromConfig(cfg) };
}

interface RetryConfig {
  RETRY_ATTEMPTS: number;
  RETRY_BASE_MS: number;
}

export function retryPolicyFromConfig(cfg: Partial<RetryConfig>): RetryPolicy {
  return { ...DEFAULT_RETRY, attempts: cfg.RETRY_ATTEMPTS ?? DEFAULT_RETRY.attempts, baseMs: cfg.RETRY_BASE_MS ?? DEFAULT_RETRY.baseMs };
}
