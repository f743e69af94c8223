// Mail goes through SMTP_URL when set (nodemailer). Every mail is also kept in the outbox
// table; without SMTP it is written to the log so a single-machine install still works.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema';
import * as outbox from './mail-outbox.repository';
import { DEFAULT_RETRY, retrying, TransientFailure, type RetryPolicy } from './retry';
import { newId } from './tokens';

/** SMTP failures worth another attempt: a 4xx reply (RFC 5321 §4.2.1, "transient negative")
 *  and a connection that failed or timed out; a 5xx reply or a refused login is final. */
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS']);
function transient(err: unknown): boolean {
  const e = err as { responseCode?: unknown; code?: unknown };
  if (typeof e?.responseCode === 'number') return e.responseCode >= 400 && e.responseCode < 500;
  return TRANSIENT_CODES.has(String(e?.code));
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    smtpUrl: string | undefined,
    private readonly from: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  private readonly pending = new Set<Promise<void>>();

  /** Stores the mail, then delivers it. Delivery failures are recorded and rethrown. */
  async send(msg: MailMessage): Promise<void> {
    await this.deliver(msg, await this.store(msg));
  }

  /** Stores the mail and delivers it after the caller has answered: the answer then takes the
   *  same time whether a mail goes out or not (sign-up and reset must not reveal which
   *  addresses are registered). Delivery failures are recorded in the outbox and logged. */
  async queue(msg: MailMessage): Promise<void> {
    const id = await this.store(msg);
    const delivery = this.deliver(msg, id).catch(() => undefined);
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }

  private async store(msg: MailMessage): Promise<string> {
    const id = newId();
    await outbox.insert(this.db, { id, to_address: msg.to, subject: msg.subject, text_body: msg.text, html_body: msg.html ?? null });
    return id;
  }

  private async deliver(msg: MailMessage, id: string): Promise<void> {
    if (!this.transport) {
      this.log.info({ mailTo: msg.to, subject: msg.subject }, `Mail (no SMTP_URL set; kept in the outbox):\n${msg.text}`);
      return;
    }
    try {
      const transport = this.transport;
      const mail = { from: this.from, to: msg.to, subject: msg.subject, text: msg.text, ...(msg.html ? { html: msg.html } : {}) };
      await retrying('Mail delivery', this.retry, async () => {
        try {
          await transport.sendMail(mail);
        } catch (err) {
          throw transient(err) ? new TransientFailure(err instanceof Error ? err.message : String(err)) : err;
        }
      });
      await outbox.markSent(this.db, id, new Date());
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      await outbox.markFailed(this.db, id, reason);
      this.log.warn({ mailTo: msg.to, err: reason }, 'Mail delivery failed');
      throw new Error('Mail delivery failed');
    }
  }

  /** Waits for queued deliveries (tests, shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  close(): void {
    // Queued deliveries finish first (each is bounded by the SMTP client's own timeouts).
    if (this.pending.size) void this.drain().then(() => this.transport?.close());
    else this.transport?.close();
  }
}
