import { sql, type Kysely } from 'kysely';
import { reportSql0701 } from './0701-billing-walk-chunks';

// Issue 37 item 4 (docs/decisions/500, amendment "the page as columns"). On PGlite the report's
// page at 5,000 avatars spent about a quarter of the function in per-row costs that do not change
// its answer:
// - one JSON object built per row (`json_build_object` looks up how to write each of its four
//   values on every call); the page is now four arrays (names, ids, minutes, calls) written as one
//   JSON object of columns, each array written with its element type looked up once, and
//   account/billing.repository.ts turns the columns back into the rows of the answer;
// - each candidate's latest name taken by an ordered `array_agg` (an array and a memory context
//   per avatar); it is now the smallest and largest name of the avatar's rows in the range, which
//   are that name when they agree (an avatar not renamed inside the range: nearly always), and the
//   ordered look-up only for an avatar whose names differ (as 0681's sort does with `lo` and `hi`);
// - each chunk's rows numbered by a window and filtered into the page row by row; the chunk's
//   arrays are now cut to the page's part of them, by its first and last row's numbers.
// Same rows, same order, same totals: the property tests against the reference query pass on
// PGlite and PostgreSQL.

/** The page as columns, for an answer with no row. */
const EMPTY = `'{"avatarName": [], "avatarId": [], "totalCallDuration": [], "totalCallCount": []}'::json`;

/** The page's columns as one JSON value (each argument a SQL array expression). */
const columns = (names: string, ids: string, minutes: string, calls: string): string =>
  `json_build_object('avatarName', ${names}, 'avatarId', ${ids}, 'totalCallDuration', ${minutes}, 'totalCallCount', ${calls})`;

const WALK_ORDER = 'order by w.k, w.name, w.avatar_id';
const SORT_PAGE = 'filter (where pg.n <= lim)';

const SWAPS: [string, string][] = [
  // Declarations: the page's columns so far, and the last chunk's.
  ['      rows json;\n', ''],
  [
    "      -- The walk in chunks: rows found, names read so far, and the last chunk's page rows.\n",
    "      -- The walk in chunks: rows found, names read so far, the last chunk's page columns and the page's.\n",
  ],
  [
    '      chunk json;\n',
    "      c_names text[];\n      c_ids text[];\n      c_minutes float8[];\n      c_calls integer[];\n      p_names text[] := '{}';\n      p_ids text[] := '{}';\n      p_minutes float8[] := '{}';\n      p_calls integer[] := '{}';\n",
  ],
  // The answers with no row.
  ["return query select '[]'::json, false, 0::float8, 0, false;", `return query select ${EMPTY}, false, 0::float8, 0, false;`],
  [
    "return query select '[]'::json, false, t_us / 60000000.0, t_calls, true;",
    `return query select ${EMPTY}, false, t_us / 60000000.0, t_calls, true;`,
  ],
  // The walk: each candidate's smallest and largest latest name instead of an ordered array.
  [
    '(array_agg(q.latest_name order by q.latest_at desc, q.latest_id desc) filter (where q.latest_at is not null))[1] as latest',
    'min(q.latest_name collate "C") filter (where q.latest_at is not null) as lo,\n                 max(q.latest_name collate "C") filter (where q.latest_at is not null) as hi',
  ],
  [
    'where u.calls > 0 and u.latest = c.name',
    `where u.calls > 0
             and case when u.lo = u.hi then u.lo = c.name collate "C"
                      else (select r.latest_name from q r where r.avatar_id = u.avatar_id and r.latest_at is not null
                             order by r.latest_at desc, r.latest_id desc limit 1) = c.name end`,
  ],
  // Read twice now (the renamed avatars' look-up): planned in place each time, not stored.
  ['        q as (\n', '        q as not materialized (\n'],
  // The chunk's rows as columns in the walk's order, with no row numbers: the page's part of them
  // is cut out below (a window and a filter per row cost more than cutting the arrays).
  [
    `        ),
        numbered as (select w.*, got + row_number() over (order by w.k, w.name, w.avatar_id) as n from walk w)
        select json_agg(json_build_object('avatarName', w.name, 'avatarId', w.avatar_id, 'totalCallDuration', w.cents::float8 / 100,
                                          'totalCallCount', w.calls) order by w.n) filter (where w.n > skip and w.n <= skip + lim),
               count(*)::int, (select count(*)::int from cand)
          into chunk, found_rows, read_names
          from numbered w;`,
    `        )
        select array_agg(w.name ${WALK_ORDER}), array_agg(w.avatar_id ${WALK_ORDER}),
               array_agg(w.cents::float8 / 100 ${WALK_ORDER}), array_agg(w.calls ${WALK_ORDER}),
               count(*)::int, (select count(*)::int from cand)
          into c_names, c_ids, c_minutes, c_calls, found_rows, read_names
          from walk w;`,
  ],
  [
    `          if chunk is not null then
            -- Two chunks' page rows as one array (JSON arrays of objects: the text joins them).
            rows := case when rows is null then chunk else (left(rows::text, -1) || ', ' || substr(chunk::text, 2))::json end;
          end if;
`,
    `          -- The chunk's rows are the walk's rows got - found_rows + 1 to got (got counts them now); the
          -- page's part of them (rows skip + 1 to skip + lim) follows the chunks before (null: none).
          p_names := p_names || c_names[greatest(1, skip - got + found_rows + 1):skip + lim - got + found_rows];
          p_ids := p_ids || c_ids[greatest(1, skip - got + found_rows + 1):skip + lim - got + found_rows];
          p_minutes := p_minutes || c_minutes[greatest(1, skip - got + found_rows + 1):skip + lim - got + found_rows];
          p_calls := p_calls || c_calls[greatest(1, skip - got + found_rows + 1):skip + lim - got + found_rows];
`,
  ],
  [
    "return query select coalesce(rows, '[]'::json), got > skip + lim, t_us / 60000000.0, t_calls, true;",
    `return query select ${columns('p_names', 'p_ids', 'p_minutes', 'p_calls')}, got > skip + lim, t_us / 60000000.0, t_calls, true;`,
  ],
  // The sort's page as columns.
  [
    `select (select coalesce(json_agg(json_build_object('avatarName', pg.avatar_name, 'avatarId', pg.avatar_id,
                                                         'totalCallDuration', pg.cents::float8 / 100, 'totalCallCount', pg.calls)
                                       order by pg.n) filter (where pg.n <= lim), '[]'::json)
                from numbered pg),`,
    `select (select ${columns(
      `coalesce(array_agg(pg.avatar_name order by pg.n) ${SORT_PAGE}, '{}')`,
      `coalesce(array_agg(pg.avatar_id order by pg.n) ${SORT_PAGE}, '{}')`,
      `coalesce(array_agg(pg.cents::float8 / 100 order by pg.n) ${SORT_PAGE}, '{}')`,
      `coalesce(array_agg(pg.calls order by pg.n) ${SORT_PAGE}, '{}')`,
    )}
                from numbered pg),`,
  ],
];

/** 0701's billing_report with the page as columns and the latest names without arrays. */
export function reportSql0702(): string {
  let text = reportSql0701();
  for (const [from, to] of SWAPS) {
    if (text.split(from).length !== 2) throw new Error(`0702: 0701's text was not found once: ${from.slice(0, 60)}`);
    text = text.replace(from, () => to);
  }
  if (/json_build_object\('avatarName', (w|pg)\.|'\[\]'::json|chunk json|into chunk|\brows :=|numbered w/.test(text))
    throw new Error('0702: a part of 0701 still writes the page as objects');
  return text;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function billing_report(text, timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await sql.raw(reportSql0702()).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function billing_report(text, timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await sql.raw(reportSql0701()).execute(db);
}
