import { describe, expect, it } from 'vitest';
import { readSse } from './sse';

async function* chunks(parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield new TextEncoder().encode(p);
}

async function all(parts: string[]) {
  const out: { event: string; data: string }[] = [];
  for await (const e of readSse(chunks(parts))) out.push(e);
  return out;
}

describe('readSse', () => {
  it('yields named and unnamed events, joins data lines and skips comments, across chunk borders and CRLF', async () => {
    const events = await all([
      ': keep-alive\r\n\r\ndata: {"a"',
      ':1}\r\n\r\nevent: delta\ndata: one\ndata: two\n\n',
      'event: empty\n\ndata: last\n',
    ]);
    expect(events).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'delta', data: 'one\ntwo' },
      { event: 'message', data: 'last' },
    ]);
  });

  it('splits a multi-byte character across chunks correctly', async () => {
    const bytes = new TextEncoder().encode('data: é\n\n');
    async function* split() {
      yield bytes.slice(0, 7);
      yield bytes.slice(7);
    }
    const out = [];
    for await (const e of readSse(split())) out.push(e.data);
    expect(out).toEqual(['é']);
  });
});
