import { sql, type Kysely } from 'kysely';
import { LOOP as LOOP_0693, reportSql, WALK } from './0693-billing-report-exact-total';
import { ROWS_0700, up as create0700 } from './0700-billing-crossings-by-id';

// Issue 37 item 4 (docs/decisions/500, amendment "the walk in chunks"). The names walk of 0693
// read the page's candidates and walk_from (64) spare ones at once, so that a few stale names (an
// avatar renamed, or without a call in the range) did not send it back to read everything again
// up to the cap. Now it reads in chunks that continue where the last one stopped: first as many
// candidates as the page needs rows, then walk_from more, then up to the cap. A page whose
// candidates all answer (every avatar of the page used in the range under one name) reads no
// spare candidate; a page with a few stale names reads the same candidates as before in two
// statements; one with many reads each candidate once instead of twice. Same answers: each
// candidate is judged on its own (its avatar's rows in the range), in the names index's order, and
// the chunks' rows are numbered after the rows found before them.

// The walk of one chunk: the names after the read_total already read (the index's order is total:
// lower-cased name, name, avatar id, unique per owner; the function's statements share one
// snapshot), the matching rows numbered after the `got` found so far. `chunk` holds those of the
// page (null when none), `found_rows` the rows found (at most one past the page), `read_names` the
// candidates read.
const CHUNK = WALK.replace(
  'order by lower(b.name), b.name, b.avatar_id limit reads\n',
  'order by lower(b.name), b.name, b.avatar_id limit reads offset read_total\n',
)
  .replace('           limit lim + 1 offset skip\n', '           limit skip + lim + 1 - got\n')
  .replace(
    'row_number() over (order by w.k, w.name, w.avatar_id) as n from walk w',
    'got + row_number() over (order by w.k, w.name, w.avatar_id) as n from walk w',
  )
  .replace(
    `        select coalesce(json_agg(json_build_object('avatarName', w.name, 'avatarId', w.avatar_id, 'totalCallDuration', w.cents::float8 / 100,
                                                   'totalCallCount', w.calls) order by w.n) filter (where w.n <= lim), '[]'::json),`,
    `        select json_agg(json_build_object('avatarName', w.name, 'avatarId', w.avatar_id, 'totalCallDuration', w.cents::float8 / 100,
                                          'totalCallCount', w.calls) order by w.n) filter (where w.n > skip and w.n <= skip + lim),`,
  )
  .replace('          into rows, found_rows, read_names\n', '          into chunk, found_rows, read_names\n');

const LOOP_0701 = `
        got := 0;
        read_total := 0;
        for attempt in 1..3 loop
          reads := least(cap, case attempt when 1 then skip + lim + 1 when 2 then skip + lim + 1 + walk_from else cap end) - read_total;
          continue when reads <= 0;
${CHUNK};
          read_total := read_total + read_names;
          got := got + found_rows;
          if chunk is not null then
            -- Two chunks' page rows as one array (JSON arrays of objects: the text joins them).
            rows := case when rows is null then chunk else (left(rows::text, -1) || ', ' || substr(chunk::text, 2))::json end;
          end if;
          if got > skip + lim or read_names < reads then
            return query select coalesce(rows, '[]'::json), got > skip + lim, t_us / 60000000.0, t_calls, true;
            return;
          end if;
        end loop;`;

const DECLARE_0693 = '      read_names integer;\n';
const DECLARE_0701 =
  "      read_names integer;\n      -- The walk in chunks: rows found, names read so far, and the last chunk's page rows.\n      got integer;\n      read_total integer;\n      chunk json;\n";

/** 0700's billing_report with the walk in chunks (0702 builds on it). */
export function reportSql0701(): string {
  const text = reportSql(ROWS_0700);
  for (const [what, part] of [
    ['loop', LOOP_0693],
    ['declarations', DECLARE_0693],
  ] as const)
    if (text.split(part).length !== 2) throw new Error(`0701: 0693's ${what} was not found once`);
  if (
    CHUNK.includes('limit lim + 1 offset skip') ||
    !CHUNK.includes('offset read_total') ||
    !CHUNK.includes('into chunk') ||
    !CHUNK.includes('w.n > skip')
  )
    throw new Error("0701: 0693's walk did not take the chunk's changes");
  return text.replace(LOOP_0693, LOOP_0701).replace(DECLARE_0693, DECLARE_0701);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function billing_report(text, timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await sql.raw(reportSql0701()).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // 0700's up drops this billing_report (same arguments) and creates its own, and billing_minutes.
  await create0700(db);
}
