// Which statements a full disk lets through to PGlite (decision 013): reads and transaction
// control pass; anything that may write WAL, row locks included, is refused before PGlite runs it.
import { describe, expect, it } from 'vitest';
import { isReadOnly } from './pglite-dialect';

describe('statements allowed on a full disk', () => {
  it('lets reads and transaction control through', () => {
    for (const sql of [
      'select 1',
      '  SELECT * from users where id = $1',
      'begin',
      'commit',
      'rollback',
      'show work_mem',
      'with x as (select 1) select * from x',
    ])
      expect(isReadOnly(sql), sql).toBe(true);
  });

  it('refuses writes, row locks and writing common table expressions', () => {
    for (const sql of [
      'insert into sessions values ($1)',
      'update users set x = 1',
      'delete from sessions',
      'create table t (id int)',
      'checkpoint',
      'vacuum',
      'select * from users where id = $1 for update',
      'select * from jobs for no key update skip locked',
      'with d as (delete from t returning *) select * from d',
    ])
      expect(isReadOnly(sql), sql).toBe(false);
  });
});
