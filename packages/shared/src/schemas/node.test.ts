import { describe, expect, it } from 'vitest';
import { parseNodeMessage, parseServerMessage } from './node';

describe('node protocol frames', () => {
  it('accepts a host emit frame and a registration', () => {
    const emit = parseNodeMessage(
      JSON.stringify({ type: 'host', sessionId: 's', op: 'emit', turnId: 't', event: { type: 'delta', text: 'hi' } }),
    );
    expect(emit).toEqual({
      ok: true,
      message: { type: 'host', sessionId: 's', op: 'emit', turnId: 't', event: { type: 'delta', text: 'hi' } },
    });
    expect(parseNodeMessage(JSON.stringify({ type: 'register', name: 'n', capacity: 3, address: 'a', privateIp: '10.0.0.1' })).ok).toBe(
      true,
    );
  });

  it('refuses frames that are not JSON, of no known type or of the wrong shape', () => {
    expect(parseNodeMessage('{')).toEqual({ ok: false, error: 'The message is not valid JSON.' });
    expect(parseNodeMessage('null').ok).toBe(false);
    expect(parseNodeMessage(JSON.stringify({ type: 'turn_end', sessionId: 's' })).ok).toBe(false);
    expect(
      parseNodeMessage(
        JSON.stringify({ type: 'host', sessionId: 's', op: 'emit', turnId: 't', event: { type: 'audio', format: 'flac', audio: '' } }),
      ).ok,
    ).toBe(false);
  });

  it('keeps every field of an engine configuration the server sends, checking its kind', () => {
    const open = {
      type: 'open',
      sessionId: 's',
      config: { kind: 'llm', apiKey: 'k', tools: [] },
      info: { sessionId: 's', userId: 'u', userName: 'n', locale: 'en-US', callbackUrl: 'http://x' },
    };
    const r = parseServerMessage(JSON.stringify(open));
    expect(r).toEqual({ ok: true, message: open });
    expect(parseServerMessage(JSON.stringify({ ...open, config: { kind: 'telepathy' } })).ok).toBe(false);
  });
});
