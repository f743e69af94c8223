import { describe, expect, it } from 'vitest';
import { failure, redact } from './provider-error';

describe('provider failures', () => {
  it('never carry the request’s secrets, in any form the provider echoes them', async () => {
    const key = 'sk-secret/key+0123"456';
    const body = `bad key Bearer ${key}; as JSON ${JSON.stringify({ k: key })}; in a URL ?key=${encodeURIComponent(key)}`;
    const err = await failure('LLM', { status: 401, text: () => body }, [key, undefined, '']);
    expect(err.message).toContain('the API key was refused');
    expect(err.message).toContain('[redacted]');
    for (const form of [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)]) expect(err.message).not.toContain(form);
  });

  it('cuts the secret out before shortening, so no half of it is left at the end', async () => {
    const key = 'k'.repeat(40);
    const err = await failure('REST endpoint', { status: 500, text: () => `${'x'.repeat(190)}${key}` }, [key]);
    expect(err.message).not.toContain('kkkkkk');
    expect(redact('short abc', ['abc'])).toBe('short abc');
  });
});
