// Billing authorisation (issue 13, decision 621): when the avatar names a billingAuthURL, the
// runtime asks it whether this conversation may go on — when it opens and every
// billingAuthPingTime seconds — through the outbound guard, with billingAuthHeader as the
// Authorization header and the session's ids in the body. A refusal (401, 402, 403, or a 2xx
// answering {"authorized": false}) ends the conversation at once; three failed calls in a row
// (no answer, another status, a guarded address) end it too. After a failure the next call
// comes at the next tick, not a whole ping period later.
import type { BillingAuth } from '../avatar-settings';
import type { OutboundClient } from '../../lib/outbound';
import type { Logger } from './ports';

export const BILLING_REFUSED_MESSAGE = "The avatar's billing service did not authorise this conversation, so it has ended.";
export const BILLING_UNREACHABLE_MESSAGE = "The avatar's billing service could not be reached, so the conversation has ended.";
/** Failed calls in a row that end the conversation. */
export const BILLING_MAX_FAILURES = 3;

export type BillingVerdict = 'ok' | 'refused' | 'failed';

export interface BillingIds {
  sessionId: string;
  avatarId: string;
  userId: string;
  deviceId: string;
}

/** What ends the conversation, with the notice for the user and the reason for the record. */
export interface BillingEnd {
  message: string;
  detail: string;
}

export class BillingAuthorisation {
  private failures = 0;
  private lastCallAt = 0;
  private lastOk = true;
  private busy = false;

  constructor(
    private readonly cfg: BillingAuth,
    private readonly ids: BillingIds,
    private readonly d: { outbound: OutboundClient; log: Logger; now(): Date },
  ) {}

  /** One call: 'start' when the conversation opens, 'ping' afterwards. */
  async call(event: 'start' | 'ping'): Promise<{ verdict: BillingVerdict; detail: string }> {
    this.lastCallAt = this.d.now().getTime();
    try {
      const res = await this.d.outbound.fetch(this.cfg.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.cfg.header ? { authorization: this.cfg.header } : {}) },
        body: JSON.stringify({ event, ...this.ids, at: this.d.now().toISOString() }),
        timeoutMs: 10_000,
        maxBytes: 64 * 1024,
      });
      if (res.status === 401 || res.status === 402 || res.status === 403)
        return { verdict: 'refused', detail: `billing authorisation refused (HTTP ${res.status})` };
      if (res.status < 200 || res.status >= 300) return { verdict: 'failed', detail: `billing authorisation failed (HTTP ${res.status})` };
      let body: unknown = null;
      try {
        body = res.json();
      } catch {
        body = null;
      }
      const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
      if (b.authorized === false || b.authorised === false || b.allowed === false)
        return { verdict: 'refused', detail: 'billing authorisation refused (authorized: false)' };
      return { verdict: 'ok', detail: '' };
    } catch (err) {
      return { verdict: 'failed', detail: `billing authorisation failed (${err instanceof Error ? err.message : String(err)})` };
    }
  }

  /** Calls and counts: the end to act on, or null to go on. */
  async check(event: 'start' | 'ping'): Promise<BillingEnd | null> {
    const { verdict, detail } = await this.call(event);
    this.lastOk = verdict === 'ok';
    if (verdict === 'ok') {
      this.failures = 0;
      return null;
    }
    this.d.log.info({ sessionId: this.ids.sessionId, detail }, 'billing authorisation');
    if (verdict === 'refused') return { message: BILLING_REFUSED_MESSAGE, detail };
    this.failures++;
    return this.failures >= BILLING_MAX_FAILURES
      ? { message: BILLING_UNREACHABLE_MESSAGE, detail: `${detail}; ${this.failures} failed calls in a row` }
      : null;
  }

  /** The runtime's tick: pings when the period has passed (or at once after a failure). */
  async atTick(nowMs: number): Promise<BillingEnd | null> {
    if (this.busy) return null;
    const due = this.lastOk ? this.lastCallAt + this.cfg.pingSeconds * 1000 : this.lastCallAt;
    if (nowMs < due) return null;
    this.busy = true;
    try {
      return await this.check('ping');
    } finally {
      this.busy = false;
    }
  }
}
