import { describe, expect, it } from 'vitest';
import { describeEnd, reconnectDelay } from './ending';

describe('describeEnd', () => {
  it('an idle timeout offers a new conversation, in plain words', () => {
    expect(describeEnd({ code: 4110, bye: 'idle', started: true })).toEqual({
      reason: 'idle',
      message: expect.stringMatching(/nothing was said/),
      retry: 'manual',
    });
    expect(describeEnd({ code: 4110, started: true }).reason).toBe('idle');
  });

  it('the demo limit and the monthly minutes end the conversation with their reason', () => {
    expect(describeEnd({ code: 4111, bye: 'demo', started: true })).toMatchObject({ reason: 'demo', retry: 'manual' });
    expect(describeEnd({ code: 4011, bye: 'usage', error: 'Usage limit exceeded', started: true })).toMatchObject({
      reason: 'usage',
      message: 'Usage limit exceeded',
    });
  });

  it('a lost node, a restarting server and a broken socket reconnect by themselves', () => {
    expect(describeEnd({ code: 4112, bye: 'node_lost', started: true })).toMatchObject({ reason: 'node_lost', retry: 'auto' });
    expect(describeEnd({ code: 4113, bye: 'server', started: true })).toMatchObject({ reason: 'server', retry: 'auto' });
    expect(describeEnd({ code: 1006, started: true })).toMatchObject({ reason: 'network', retry: 'auto' });
  });

  it("refusals show the server's message; an origin refusal offers nothing to retry", () => {
    expect(describeEnd({ code: 4013, bye: 'server', error: 'Invalid token', started: false })).toMatchObject({
      reason: 'refused',
      message: 'Invalid token',
      retry: 'manual',
    });
    expect(describeEnd({ code: 4012, error: 'No node', started: false })).toMatchObject({ reason: 'busy', retry: 'manual' });
    expect(describeEnd({ code: 4103, started: false })).toMatchObject({ reason: 'origin', retry: 'none' });
    expect(describeEnd({ code: 4129, bye: 'client', started: true })).toMatchObject({ reason: 'rate_limited' });
    expect(describeEnd({ code: 1009, started: true })).toMatchObject({ reason: 'too_large' });
  });

  it('backs off between reconnects, up to 15 s', () => {
    expect([0, 1, 2, 3, 4, 5].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000]);
  });
});
