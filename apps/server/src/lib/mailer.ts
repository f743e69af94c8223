// Mail (decision 012): a request only writes the mail into the outbox table — in the transaction
// of the change that causes it, where there is one — and a background sender delivers it through
// SMTP_URL (nodemailer, with short timeouts), tries again later with a growing wait, and marks it
// failed after the last attempt with its error (the administrator sees it: /api/mail_status).
// No request waits on SMTP. Without SMTP_URL the sender writes each mail to the log instead.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { DB } from '../db/schema';
import { inBackground } from '../db/pglite-gate';
import { mailBlock } from './mail-console';
import * as outbox from './mail-outbox.repository';
import { newId } from './tokens';

/** SMTP failures worth another attempt: a 4xx reply (RFC 5321 §4.2.1, "transient negative")
 *  and a connection that failed or timed out; a 5xx reply or a refused login is final. */
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS']);
function transient(err: unknown): boolean {
  const e = err as { responseCode?: unknown; code?: unknown };
  if (typeof e?.responseCode === 'number') return e.responseCode >= 400 && e.responseCode < 500;
  return TRANSIENT_CODES.has(String(e?.code));
}

/** The longest wait between two attempts of one mail. */
const MAX_RETRY_WAIT_MS = 60 * 60 * 1000;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Attempts in all before a mail is marked failed. */
  maxAttempts: number;
  /** The wait after the first failed attempt; each next one doubles (times a random factor in
   *  [1, 2)), up to an hour. */
  retryBaseMs: number;
  /** Each of nodemailer's connection, greeting and socket timeouts: a server that accepts and
   *  never answers costs one attempt this long, not a request. */
  smtpTimeoutMs: number;
  /** How often the sender looks for due mail nobody woke it for (written by another process). */
  pollMs: number;
}

export function mailerOptionsFromConfig(config: Config): MailerOptions {
  return {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    smtpTimeoutMs: config.MAIL_SMTP_TIMEOUT_MS,
    pollMs: config.MAIL_POLL_MS,
  };
}

export class Mailer {
  private readonly transport: Transporter | null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;
  /** Without SMTP, where a mail is printed readably besides its log line (main.ts: the console). */
  printTo: ((text: string) => void) | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    private readonly opts: MailerOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    const t = opts.smtpTimeoutMs;
    this.transport = opts.smtpUrl
      ? nodemailer.createTransport({ url: opts.smtpUrl, connectionTimeout: t, greetingTimeout: t, socketTimeout: t, dnsTimeout: t })
      : null;
  }

  /** Writes the mail into the outbox on `db` — pass the transaction of the change that causes
   *  it — and sends nothing. Call `wake()` once that transaction has committed. */
  async queue(db: Kysely<DB>, msg: MailMessage): Promise<void> {
    await outbox.insert(db, {
      id: newId(),
      to_address: msg.to,
      subject: msg.subject,
      text_body: msg.text,
      html_body: msg.html ?? null,
      next_attempt_at: this.now(),
    });
  }

  /** Queues a mail on its own (no transaction) and wakes the sender. */
  async post(msg: MailMessage): Promise<void> {
    await this.queue(this.db, msg);
    this.wake();
  }

  /** Mail was queued: the sender looks now rather than at its next poll (a no-op until started). */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.loop();
  }

  /** Starts the background sender (server.ts; the test harness). */
  start(): void {
    this.started = true;
    this.wake();
  }

  /** Stops the sender; an attempt under way ends first (bounded by the SMTP timeouts). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await this.running;
    this.transport?.close();
  }

  private async loop(): Promise<void> {
    let next: Date | null = null;
    try {
      do {
        this.again = false;
        await inBackground(() => this.sendDue());
      } while (this.again && !this.stopped);
      next = await inBackground(() => outbox.nextDueAt(this.db));
    } catch (err) {
      this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'mail sender: the outbox could not be read');
    } finally {
      this.running = null;
    }
    if (this.stopped) return;
    // Woken while it read when the next mail is due: that mail may be newer than the answer.
    if (this.again) return this.wake();
    const wait = next ? Math.min(this.opts.pollMs, Math.max(0, next.getTime() - this.now().getTime())) : this.opts.pollMs;
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  private async sendDue(): Promise<void> {
    while (!this.stopped) {
      const now = this.now();
      // The lease outlasts one attempt by far (each SMTP step is bounded by the timeout).
      const lease = new Date(now.getTime() + Math.max(60_000, 10 * this.opts.smtpTimeoutMs));
      const mail = await outbox.claimDue(this.db, now, lease);
      if (!mail) return;
      await this.attempt(mail);
    }
  }

  private async attempt(mail: outbox.OutboxMail): Promise<void> {
    if (!this.transport) {
      if (this.printTo) {
        this.printTo(mailBlock({ to: mail.to_address, subject: mail.subject, text: mail.text_body }));
        this.log.info({ mailTo: mail.to_address, subject: mail.subject }, 'Mail printed above (no SMTP_URL set; kept in the outbox)');
      } else
        this.log.info({ mailTo: mail.to_address, subject: mail.subject }, `Mail (no SMTP_URL set; kept in the outbox):\n${mail.text_body}`);
      await outbox.markSent(this.db, mail.id, this.now());
      return;
    }
    try {
      await this.transport.sendMail({
        from: this.opts.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        ...(mail.html_body ? { html: mail.html_body } : {}),
      });
      await outbox.markSent(this.db, mail.id, this.now());
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (transient(err) && mail.attempts < this.opts.maxAttempts) {
        const wait = Math.min(MAX_RETRY_WAIT_MS, this.opts.retryBaseMs * 2 ** (mail.attempts - 1) * (1 + Math.random()));
        await outbox.retryLater(this.db, mail.id, new Date(this.now().getTime() + wait), reason);
        this.log.warn({ mailTo: mail.to_address, attempt: mail.attempts, err: reason }, 'Mail delivery failed; trying again later');
        return;
      }
      const final = transient(err) ? `Mail delivery failed after ${mail.attempts} attempts: ${reason}` : `Mail delivery failed: ${reason}`;
      await outbox.markFailed(this.db, mail.id, final);
      this.log.warn({ mailTo: mail.to_address, err: final }, 'Mail delivery failed');
    }
  }
}
