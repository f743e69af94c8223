// Usage written and read for many conversations at once (the runtime's tick): conversations
// that share a key (the same address) are summed, not refused by the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { addUsageMany, usageId, usageTodayMany, type UsageKey } from './usage-counters.repository';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('usage of many conversations at once', () => {
  it('sums the seconds of conversations sharing a key and reads every key back', async () => {
    const at = new Date('2026-11-22T10:00:00Z');
    const ip: UsageKey = { scope: 'ip', key: 'avatar-1:10.0.0.1' };
    const parts = Array.from({ length: 1500 }, (_, i) => ({
      keys: [{ scope: 'session', key: `avatar-1:device-${i}` } as UsageKey, ip],
      seconds: 2,
    }));
    await addUsageMany(server.ctx.db, parts, at);
    await addUsageMany(
      server.ctx.db,
      [
        { keys: [ip], seconds: 5 },
        { keys: [ip], seconds: 0 },
      ],
      at,
    );
    const used = await usageTodayMany(
      server.ctx.db,
      [ip, parts[0]!.keys[0]!, parts[1499]!.keys[0]!, { scope: 'demo', key: 'avatar-1:10.0.0.1' }],
      at,
    );
    expect(used.get(usageId(ip))).toBe(3005);
    expect(used.get(usageId(parts[0]!.keys[0]!))).toBe(2);
    expect(used.get(usageId(parts[1499]!.keys[0]!))).toBe(2);
    expect(used.has(usageId({ scope: 'demo', key: 'avatar-1:10.0.0.1' }))).toBe(false);
    // Another day starts from zero.
    expect((await usageTodayMany(server.ctx.db, [ip], new Date('2026-11-23T10:00:00Z'))).size).toBe(0);
  });
});
