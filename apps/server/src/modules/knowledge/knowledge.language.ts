// The full-text configuration of a collection: its language's PostgreSQL configuration (with
// stemming and stop words) when the database has one, else 'simple' (words as written). The
// language is the one the user chose, or the one detected from the collection's text (franc:
// maintained trigram detector, data bundled, docs/decisions/407).
import { francAll } from 'franc';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { textSearchConfigNames } from './knowledge.repository';

const CONFIG_BY_LANGUAGE: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  nb: 'norwegian',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

export const FALLBACK_CONFIG = 'simple';
/** Text read for a detection: enough for a confident answer, little enough to be instant. */
const DETECT_CHARS = 4000;
/** Fewer letters decide nothing (the next item's text will): franc read "Yes. zlib doesn't handle
 *  dates." (24 letters), the first answer of an English FAQ, as Danish, and the whole collection
 *  was stemmed as Danish with Danish stop words (bench/knowledge-heldout.ts, decision 413). */
const DETECT_MIN_LETTERS = 40;
/** ISO 639-3 (franc) → ISO 639-1 (our codes), for the languages with a configuration. */
const ISO3: Record<string, string> = {
  arb: 'ar',
  hye: 'hy',
  eus: 'eu',
  cat: 'ca',
  dan: 'da',
  nld: 'nl',
  eng: 'en',
  fin: 'fi',
  fra: 'fr',
  deu: 'de',
  ell: 'el',
  hin: 'hi',
  hun: 'hu',
  ind: 'id',
  gle: 'ga',
  ita: 'it',
  lit: 'lt',
  npi: 'ne',
  nob: 'no',
  nno: 'no',
  por: 'pt',
  ron: 'ro',
  rus: 'ru',
  srp: 'sr',
  spa: 'es',
  swe: 'sv',
  tam: 'ta',
  tur: 'tr',
  ydd: 'yi',
};

const available = new WeakMap<object, Promise<Set<string>>>();

function configs(db: Kysely<DB>): Promise<Set<string>> {
  let found = available.get(db);
  if (!found) {
    found = textSearchConfigNames(db);
    available.set(db, found);
  }
  return found;
}

/** 'de-DE' → 'de'. */
export function languageCode(language: string | null | undefined): string {
  return (language ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** 'de-DE' → 'german' where the database has it; anything unknown → 'simple'. */
export async function textSearchConfig(db: Kysely<DB>, language: string | null | undefined): Promise<string> {
  const wanted = CONFIG_BY_LANGUAGE[languageCode(language)];
  if (!wanted) return FALLBACK_CONFIG;
  return (await configs(db)).has(wanted) ? wanted : FALLBACK_CONFIG;
}

/** The language searched and indexed with: the chosen one, else the detected one. */
export function effectiveLanguage(c: { language: string | null; detected_language?: string | null }): string | null {
  return c.language || c.detected_language || null;
}

/**
 * The language of a text among those with a stemming configuration, or null when tinyld is not
 * confident (short or mixed text) or the language has no configuration (then: no stemming).
 */
export function detectLanguage(text: string): string | null {
  const sample = text.slice(0, DETECT_CHARS);
  const short = sample.replace(/[^\p{L}]/gu, '').length < DETECT_MIN_LETTERS;
  const [best] = francAll(sample, { minLength: 10, only: Object.keys(ISO3) });
  if (!best || best[0] === 'und') return null;
  // A short text decides only English, the product's default: the failure seen was English read
  // as another language ("Yes. zlib doesn't handle dates." as Danish), while a one-line English
  // item left unstemmed no longer matched "open" with "opens" (a collection of one short item).
  if (short && best[0] !== 'eng') return null;
  const code = ISO3[best[0]];
  return code && CONFIG_BY_LANGUAGE[code] ? code : null;
}
