// The full-text configuration of a collection: its language's PostgreSQL configuration (with
// stemming and stop words) when the database has one, else 'simple' (words as written).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { textSearchConfigNames } from './knowledge.repository';

const CONFIG_BY_LANGUAGE: Record<string, string> = {
  ar: 'arabic', hy: 'armenian', eu: 'basque', ca: 'catalan', da: 'danish', nl: 'dutch', en: 'english',
  fi: 'finnish', fr: 'french', de: 'german', el: 'greek', hi: 'hindi', hu: 'hungarian', id: 'indonesian',
  ga: 'irish', it: 'italian', lt: 'lithuanian', ne: 'nepali', nb: 'norwegian', nn: 'norwegian', no: 'norwegian',
  pt: 'portuguese', ro: 'romanian', ru: 'russian', sr: 'serbian', es: 'spanish', sv: 'swedish', ta: 'tamil',
  tr: 'turkish', yi: 'yiddish',
};

export const FALLBACK_CONFIG = 'simple';

const available = new WeakMap<object, Promise<Set<string>>>();

function configs(db: Kysely<DB>): Promise<Set<string>> {
  let found = available.get(db);
  if (!found) {
    found = textSearchConfigNames(db);
    available.set(db, found);
  }
  return found;
}

/** 'de-DE' → 'german' where the database has it; anything unknown → 'simple'. */
export async function textSearchConfig(db: Kysely<DB>, language: string | null | undefined): Promise<string> {
  const code = (language ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const wanted = CONFIG_BY_LANGUAGE[code];
  if (!wanted) return FALLBACK_CONFIG;
  return (await configs(db)).has(wanted) ? wanted : FALLBACK_CONFIG;
}
