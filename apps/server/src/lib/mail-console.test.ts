import { describe, expect, it } from 'vitest';
import { mailBlock } from './mail-console';

describe('a mail written to the console', () => {
  it('puts the link on a line of its own, whole, between two rules', () => {
    const link = 'http://localhost:8080/react/email-verification/abc_DEF-123';
    const block = mailBlock({ to: 'ada@example.com', subject: 'Verify your email', text: `Hello,\n\nOpen this link:\n${link}\n\nParla` });
    const lines = block.split('\n');
    expect(lines).toContain(`  ${link}`);
    expect(lines[1]).toBe('================ Mail to ada@example.com (no SMTP_URL set) ================');
    expect(lines).toContain('  Subject: Verify your email');
    expect(lines.at(-2)).toMatch(/^=+$/);
    expect(block).not.toContain('\\n');
  });
});
