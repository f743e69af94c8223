// The account export (issue 13, decision 625): the customer's own data as one JSON document,
// written piece by piece from pages of rows (a large account never sits in memory at once) and
// without any secret: the queries select no secret column, and any key of a JSON setting that
// names a secret (API keys, headers, tokens, passwords) is left out.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import * as repo from './account-export.repository';

const EXPORT_FORMAT = 'parla-account-export';
/** Keys that name a secret (`api_key`, `apiKey`, `clientSecret`, `billingAuthHeader`, `password`…);
 *  `token_issue_url` and the like are kept. */
const SECRET_KEY = /(api[_-]?key|secret|password|private[_-]?key|token|header|authori[sz]ation|credentials?)$/i;

/** A copy of a JSON value without keys that name secrets. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !SECRET_KEY.test(k))
        .map(([k, v]) => [k, withoutSecrets(v)]),
    );
  }
  return value;
}

const json = (v: unknown) => JSON.stringify(withoutSecrets(v));

/** Rows of a keyed listing, page by page. */
async function* paged<R, K>(page: (after: K) => Promise<R[]>, first: K, key: (r: R) => K): AsyncGenerator<R> {
  let after = first;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < repo.EXPORT_PAGE) return;
    after = key(rows[rows.length - 1]!);
  }
}

/** `"name":[a,b,…]` with each element written by `each`. */
async function* list<R>(name: string, rows: AsyncIterable<R>, each: (r: R) => AsyncIterable<string>): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const r of rows) {
    if (!first) yield ',';
    first = false;
    yield* each(r);
  }
  yield ']';
}

async function* one(text: string): AsyncGenerator<string> {
  yield text;
}

export async function* exportAccount(db: Kysely<DB>, ownerId: string, now: Date): AsyncGenerator<string> {
  const account = await repo.accountRow(db, ownerId);
  yield `{"format":"${EXPORT_FORMAT}","version":1,"exportedAt":${JSON.stringify(now.toISOString())},"account":${json(account ?? null)}`;
  yield* list(
    'avatars',
    paged(
      (a) => repo.avatarsPage(db, ownerId, a),
      '',
      (r) => r.id,
    ),
    (r) => one(json(r)),
  );
  yield* list(
    'knowledgeCollections',
    paged(
      (a) => repo.collectionsPage(db, ownerId, a),
      '',
      (r) => r.id,
    ),
    async function* (c) {
      yield json(c).slice(0, -1);
      yield* list(
        'items',
        paged(
          (a) => repo.itemsPage(db, ownerId, c.id, a),
          '',
          (r) => r.id,
        ),
        async function* (item) {
          const { content, ...rest } = item;
          yield `${json(rest).slice(0, -1)},"text":`;
          if (item.kind === 'text') return void (yield `${JSON.stringify(content ?? '')}}`);
          // Page and file items: their extracted text, from the chunks in order.
          yield '"';
          let sep = '';
          for await (const chunk of paged(
            (a) => repo.chunksPage(db, ownerId, item.id, a),
            -1,
            (r) => r.ord,
          )) {
            yield JSON.stringify(sep + chunk.content).slice(1, -1);
            sep = '\n\n';
          }
          yield '"}';
        },
      );
      yield '}';
    },
  );
  yield* list(
    'functions',
    paged(
      (a) => repo.functionsPage(db, ownerId, a),
      '',
      (r) => r.id,
    ),
    (r) => one(json(r)),
  );
  yield* list(
    'oauthConfigs',
    paged(
      (a) => repo.oauthAppsPage(db, ownerId, a),
      0,
      (r) => r.id,
    ),
    (r) => one(json(r)),
  );
  yield* list(
    'conversations',
    paged(
      (a) => repo.conversationsPage(db, ownerId, a),
      '',
      (r) => r.id,
    ),
    async function* (c) {
      yield json(c).slice(0, -1);
      yield* list(
        'messages',
        paged(
          (a) => repo.messagesPage(db, ownerId, c.id, a),
          -1,
          (r) => r.seq,
        ),
        (m) => one(json(m)),
      );
      yield '}';
    },
  );
  yield '}\n';
}
