// The ranking's BM25 arithmetic moved from SQL to TypeScript (issue 37): the scores must be the
// numbers PostgreSQL computed, bit for bit, and the tsvector's text must read as PostgreSQL
// unnests it. Both are checked against the database itself.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { B, FULL, K1, candidatesOf, scoreCandidates, spotsOf } from './knowledge.scoring';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const TEXTS = [
  'Joins all given path segments together using the platform-specific separator as a delimiter.',
  'The path.join() method joins path segments; a zero-length path segment is ignored. Path path path.',
  'Timers call a function after a delay; a timer can be cancelled before it fires.',
  'Segments of a path: the directory, the base name and the extension of a path.',
  'Nothing about the question at all, only other words.',
];
const LEXEMES = ['path', 'join', 'segment', 'timer', 'absent'];
const IDFS = [1.7, 2.3, 0.41, 3.05, 6.9];

describe('the ranking scores computed outside SQL', () => {
  it('reads a tsvector as PostgreSQL unnests it, doubled quotes and backslashes included', async () => {
    const vector = String.raw`'it''s':1,4 'a\\b':2 'x':3 'plain':5,9,12`;
    const wanted = ["it's", 'a\\b', 'plain', 'missing'];
    const { rows } = await sql<{ hits: string; spots: string[] }>`
      select ts_filter(setweight(v, 'A', ${wanted}::text[]), '{a}')::text as hits,
        (select array_agg(h.lexeme || ' ' || array_to_string(h.positions, ' '))
         from unnest(ts_filter(setweight(v, 'A', ${wanted}::text[]), '{a}')) h) as spots
      from (select ${vector}::tsvector as v) x
    `.execute(server.ctx.db);
    expect(spotsOf(rows[0]!.hits).map((s) => `${s.lexeme} ${s.positions.join(' ')}`)).toEqual(rows[0]!.spots);
    expect(rows[0]!.spots).toHaveLength(3);
  });

  it('gives the same float8 scores, in the same order, as the SQL they replace', async () => {
    const values = sql.join(TEXTS.map((t, i) => sql`(${i + 1}::int, to_tsvector('english', ${t}))`));
    const candidates = sql`select id, length(tsv)::float8 as len, ts_filter(setweight(tsv, 'A', ${LEXEMES}::text[]), '{a}') as hits
      from (values ${values}) v(id, tsv)`;
    const byPostgres = await sql<{ id: number; raw: number; covered: number }>`
      with candidates as (${candidates}),
      idf as (select * from unnest(${LEXEMES}::text[], ${IDFS}::float8[]) as i(lexeme, idf)),
      norms as (select greatest(avg(len), 1) as avglen from candidates),
      scored as (
        select s.id, sum(i.idf * t.part) as raw, sum(i.idf * least(t.part, ${FULL}::float8)) as covered
        from candidates s
        cross join lateral unnest(s.hits) f
        cross join norms n
        cross join lateral (
          select cardinality(f.positions) * ${K1 + 1}::float8 / (cardinality(f.positions) + ${K1}::float8 * (1 - ${B}::float8 + ${B}::float8 * s.len / n.avglen)) as part
        ) t
        join idf i on i.lexeme = f.lexeme
        group by s.id
      )
      select id, raw::float8 as raw, covered::float8 as covered from scored order by covered desc, raw desc, id
    `.execute(server.ctx.db);
    const read = await sql<{ id: number; len: number; hits: string }>`
      select id, len::int as len, hits::text as hits from (${candidates}) c order by id
    `.execute(server.ctx.db);
    const ours = scoreCandidates(
      read.rows.map((r) => ({ id: Number(r.id), len: Number(r.len), spots: spotsOf(r.hits) })),
      new Map(LEXEMES.map((l, i) => [l, i])),
      IDFS,
    );
    expect(byPostgres.rows.length).toBeGreaterThan(2);
    expect(ours.map((c) => [c.id, c.raw, c.covered])).toEqual(byPostgres.rows.map((r) => [Number(r.id), Number(r.raw), Number(r.covered)]));
    // Every lexeme alone in its group: the same numbers, bit for bit.
    const alone = scoreCandidates(
      read.rows.map((r) => ({ id: Number(r.id), len: Number(r.len), spots: spotsOf(r.hits) })),
      new Map(LEXEMES.map((l, i) => [l, i])),
      IDFS,
      LEXEMES.map((_, i) => i),
    );
    expect(alone.map((c) => [c.id, c.raw, c.covered])).toEqual(ours.map((c) => [c.id, c.raw, c.covered]));
  });

  it("credits a chunk with its best lexeme of a group (one absent word's stand-ins, decision 427), once", () => {
    const index = new Map([
      ['ship', 0],
      ['ferri', 1],
      ['island', 2],
    ]);
    const idfs = [2, 1.5, 1];
    const spots = (...lexemes: string[]) => lexemes.map((lexeme, i) => ({ lexeme, positions: [i + 1] }));
    const candidates = [
      { id: 1, len: 4, spots: spots('ferri', 'island', 'ship') },
      { id: 2, len: 4, spots: spots('ferri', 'island') },
    ];
    const part = (K1 + 1) / (1 + K1); // tf 1 at average length
    const [both, one] = scoreCandidates(candidates, index, idfs, [0, 0, 2]);
    expect(both!.covered).toBeCloseTo(2 * part + 1 * part, 12);
    expect(one!.covered).toBeCloseTo(1.5 * part + 1 * part, 12);
    // Without groups each lexeme counts.
    expect(scoreCandidates(candidates, index, idfs)[0]!.covered).toBeCloseTo(4.5 * part, 12);
  });

  it('reads the candidates packed in one value as it reads them row by row', async () => {
    const vectors = [
      ...TEXTS.map((t) => sql`to_tsvector('english', ${t})`),
      sql`${String.raw`'it''s':1,4 'a\\b':2 'x':3 'plain':5,9,12`}::tsvector`,
    ];
    const wanted = [...LEXEMES, "it's", 'a\\b', 'plain'];
    const candidates = sql`select id, length(tsv) as len, ts_filter(setweight(tsv, 'A', ${wanted}::text[]), '{a}')::text as hits
      from (values ${sql.join(vectors.map((v, i) => sql`(${i + 1}::bigint, ${v})`))}) v(id, tsv)`;
    const one = await sql<{ id: number; len: number; hits: string }>`select * from (${candidates}) c order by id`.execute(server.ctx.db);
    const packed = await sql<{ packed: string }>`
      select string_agg(c.id || ' ' || c.len || ' ' || c.hits, E'\n' order by c.id) as packed from (${candidates}) c
    `.execute(server.ctx.db);
    expect(one.rows.some((r) => r.hits.includes("''"))).toBe(true);
    expect(candidatesOf(packed.rows[0]!.packed)).toEqual(
      one.rows.map((r) => ({ id: Number(r.id), len: Number(r.len), spots: spotsOf(r.hits) })),
    );
  });
});
