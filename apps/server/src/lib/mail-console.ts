// A mail written to the console when no SMTP server is set (development, the README's quick
// start): as readable as the administrator's banner, every line of the body on a line of its own
// and links left whole, so a verification link can be opened from the terminal (issue 39; the
// log's JSON line escaped the body's line breaks).
export interface ConsoleMail {
  to: string;
  subject: string;
  text: string;
}

const RULE = '================';

export function mailBlock(mail: ConsoleMail): string {
  const head = `${RULE} Mail to ${mail.to} (no SMTP_URL set) ${RULE}`;
  return [
    '',
    head,
    `  Subject: ${mail.subject}`,
    '',
    ...mail.text
      .trimEnd()
      .split(/\r?\n/)
      .map((l) => (l ? `  ${l}` : '')),
    '='.repeat(head.length),
    '',
  ].join('\n');
}
