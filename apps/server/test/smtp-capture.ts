// A real SMTP server on loopback that keeps every message it receives (tests read the links).
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface CapturedMail {
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

export interface SmtpCapture {
  url: string;
  port: number;
  messages: CapturedMail[];
  /** Resolves with the first message to this address received after the call (or already kept). */
  waitFor(to: string, predicate?: (m: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

function decode(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const subject = /^Subject: (.*)$/im.exec(head)?.[1]?.trim() ?? '';
  let body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    body = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return { subject, text: body };
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const waiters: { to: string; pred: (m: CapturedMail) => boolean; resolve: (m: CapturedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => (raw += c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const mail = { to, raw, ...decode(raw) };
        messages.push(mail);
        for (const w of [...waiters]) {
          if (to.includes(w.to) && w.pred(mail)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(to, predicate = () => true, timeoutMs = 5000) {
      const addr = to.toLowerCase();
      const found = messages.find((m) => m.to.includes(addr) && predicate(m));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ to: addr, pred: predicate, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail whose path contains `segment`, and its last path part (the code). */
export function linkIn(mail: CapturedMail, segment: string): { url: string; code: string } {
  const match = new RegExp(`https?://\\S*${segment}/([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${segment} link in mail: ${mail.text}`);
  return { url: match[0], code: match[1]! };
}
