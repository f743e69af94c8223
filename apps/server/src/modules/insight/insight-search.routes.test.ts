// The insight's transcript search finds the same conversations whichever way it goes (decision
// 416): through the trigram index (few matching messages) or reading the range newest first (a
// text more messages contain than the index may hand over): case-insensitive, a part of a word,
// `%` and `_` taken literally, the range's conversations only, newest first, paged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { save } from '../../../test/avatar-requests';
import { addMessages } from '../conversations/transcripts.repository';
import { conversationsPage, search, type Range } from './insight.repository';

let server: TestServer;
let alice: TestAccount;
let avatarId: string;
const DAY = 86_400_000;
const base = Date.UTC(2026, 0, 10, 12);
const said = [
  'Do you ship to Mars?',
  'What does 100% cotton mean?',
  'Is the 100_pack in stock?',
  'Shipping to mars, again',
  'Opening hours please',
  'marshmallows?',
];

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'search');
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  const appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
  const saved = await save(server, alice.token, { name: 'Desk', dhType: appearance.type, appearanceId: appearance.id });
  expect(saved.statusCode, saved.body).toBe(200);
  avatarId = saved.json().agent.id;
  // One conversation a day; each asks one of the texts above; the wake-up never matches.
  for (const [i, text] of said.entries()) {
    const id = `c${i}`;
    const at = new Date(base + i * DAY);
    await server.ctx.db
      .insertInto('conversations')
      .values({
        id,
        owner_id: alice.id,
        avatar_id: avatarId,
        avatar_name: 'Desk',
        avatar_type: '2d',
        user_id: 'v',
        user_name: 'V',
        started_at: at,
        last_seen_at: at,
      })
      .execute();
    await addMessages(server.ctx.db, [
      { conversationId: id, ownerId: alice.id, avatarId, seq: 0, role: 'wake_up', text: 'mars wake up', at, interrupted: false },
      { conversationId: id, ownerId: alice.id, avatarId, seq: 1, role: 'user', text, at, interrupted: false },
      { conversationId: id, ownerId: alice.id, avatarId, seq: 2, role: 'assistant', text: 'Noted.', at, interrupted: false },
    ]);
  }
});

afterAll(async () => {
  await server.close();
});

describe('insight transcript search', () => {
  it('finds the same conversations through the index and by reading the range', async () => {
    const r: Range = { ownerId: alice.id, avatarId, start: new Date(base - DAY / 2), end: new Date(base + 5 * DAY - DAY / 2) };
    const cases: [string, string[]][] = [
      ['MARS', ['c3', 'c0']], // c5 (marshmallows) is after the range; the wake-up never counts
      ['100%', ['c1']],
      ['100_', ['c2']],
      ['ship', ['c3', 'c0']],
      ['xyz', []],
      ['o', ['c4', 'c3', 'c2', 'c1', 'c0']],
    ];
    for (const [text, want] of cases)
      for (const max of [2000, 0]) {
        const q = await search(server.ctx.db, r, text, max);
        expect(q.ids === null, `${text} by the range`).toBe(max === 0 && want.length > 0);
        const rows = await conversationsPage(server.ctx.db, r, q, 20, 0);
        expect(
          rows.map((c) => c.id),
          `${text}, max ${max}`,
        ).toEqual(want);
        expect(rows.every((c) => Number(c.messages) === 2)).toBe(true);
        const second = await conversationsPage(server.ctx.db, r, q, 1, 1);
        expect(second.map((c) => c.id)).toEqual(want.slice(1, 2));
      }
  });
});
