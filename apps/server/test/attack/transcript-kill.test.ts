// Transcripts are written in batches, off the turns' path (issue 37, runtime/transcript-writer.ts).
// Nothing is lost but the last batch: a conversation that ended cleanly has its whole transcript
// in the database when its client sees the close, and a process killed with SIGKILL has written
// every message said more than TRANSCRIPT_FLUSH_MS (1 s) before it died. Real server process,
// real database (PGlite on disk, or PostgreSQL with TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSCRIPT_FLUSH_MS } from '../../src/runtime/transcript-writer';
import { connect, type TestConversation } from '../conversation-client';
import { saveAvatar, serverHome, type ServerHome } from '../server-process';

let home: ServerHome;

/** The avatar's greeting (its wake-up turn), then each question's whole answer: the texts said. */
async function talk(c: TestConversation, questions: string[]): Promise<string[]> {
  const said = [(await c.next('assistant_done', undefined, 30_000)).text];
  for (const q of questions) said.push((await c.ask(q, 30_000)).text);
  return said;
}

beforeAll(async () => {
  home = await serverHome();
}, 120_000);

afterAll(async () => {
  await home?.remove();
});

describe('transcripts written in batches', () => {
  it('are whole after a clean end, and after a kill -9 hold every message said before the last batch', async () => {
    const server = await home.start();
    const session = await home.login(server.url);
    const avatar = await saveAvatar(server.url, session);

    // A clean end: the transcript is whole as soon as the client sees the close.
    const a = await connect(server.host, { avatarId: avatar.id, token: avatar.token });
    const aId = (await a.next('ready')).sessionId;
    const aAnswers = await talk(a, ['first question', 'second question']);
    a.send({ type: 'bye' });
    await a.closed;
    const res = await fetch(`${server.url}/api/conversations/${aId}/transcript`, { headers: session });
    expect(res.status).toBe(200);
    const t = (await res.json()) as { messages: { role: string; text: string }[] };
    expect(t.messages.map((m) => [m.role, m.text])).toEqual([
      ['assistant', aAnswers[0]],
      ['user', 'first question'],
      ['assistant', aAnswers[1]],
      ['user', 'second question'],
      ['assistant', aAnswers[2]],
    ]);

    // SIGKILL with the conversation open: what was said before the last batch is there.
    const b = await connect(server.host, { avatarId: avatar.id, token: avatar.token });
    const bId = (await b.next('ready')).sessionId;
    const bAnswers = await talk(b, ['third question', 'fourth question']);
    await new Promise((r) => setTimeout(r, TRANSCRIPT_FLUSH_MS + 1500));
    server.proc.kill('SIGKILL');
    await server.exited;
    const database = await home.open();
    try {
      const said = await database.db
        .selectFrom('conversation_messages')
        .select(['role', 'text'])
        .where('conversation_id', '=', bId)
        .orderBy('seq')
        .execute();
      expect(said.map((m) => [m.role, m.text]).filter(([role]) => role !== 'wake_up')).toEqual([
        ['assistant', bAnswers[0]],
        ['user', 'third question'],
        ['assistant', bAnswers[1]],
        ['user', 'fourth question'],
        ['assistant', bAnswers[2]],
      ]);
    } finally {
      await database.close();
    }
  }, 180_000);
});
