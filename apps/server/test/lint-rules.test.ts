// The lint rules that hold the design (issue 12 item 7) fail on deliberate violations: each case
// lints a small text as if it were a file at that path, with the repository's own eslint config.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

async function problems(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: resolve(root, path) });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const QUERY = `import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
export function names(db: Kysely<DB>) {
  return db.selectFrom('users').select('email').execute();
}
`;

const RAW = `import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';
export const ping = (db: Kysely<DB>) => sql\`select 1\`.execute(db);
`;

describe('the lint rules', () => {
  it('refuse a query in a service, a route or the runtime, and allow it in a repository', async () => {
    expect((await problems('apps/server/src/modules/avatars/avatars.service.ts', QUERY)).join()).toMatch(/SQL lives in a \*\.repository\.ts/);
    expect((await problems('apps/server/src/modules/portal/portal.routes.ts', RAW)).join()).toMatch(/SQL lives in a \*\.repository\.ts/);
    expect((await problems('apps/server/src/runtime/conversation/turn-loop.ts', QUERY)).join()).toMatch(/SQL lives/);
    expect(await problems('apps/server/src/modules/avatars/avatars.repository.ts', QUERY)).toEqual([]);
    expect(await problems('apps/server/src/runtime/repositories/conversations.ts', RAW)).toEqual([]);
  });
});
