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
    expect((await problems('apps/server/src/modules/avatars/avatars.service.ts', QUERY)).join()).toMatch(
      /SQL lives in a \*\.repository\.ts/,
    );
    expect((await problems('apps/server/src/modules/portal/portal.routes.ts', RAW)).join()).toMatch(/SQL lives in a \*\.repository\.ts/);
    expect((await problems('apps/server/src/runtime/conversation/turn-loop.ts', QUERY)).join()).toMatch(/SQL lives/);
    expect(await problems('apps/server/src/modules/avatars/avatars.repository.ts', QUERY)).toEqual([]);
    expect(await problems('apps/server/src/runtime/repositories/conversations.ts', RAW)).toEqual([]);
  });

  it('refuse a web feature importing another feature or the app, and allow its own folder, components and lib', async () => {
    const at = 'apps/web/src/features/knowledge/components/violation.tsx';
    const other = await problems(
      at,
      "import { useEncKeys } from '../../encryption-keys/api/get-enc-keys';\nexport const x = useEncKeys;\n",
    );
    expect(other.join()).toMatch(/boundaries\/dependencies/);
    const app = await problems(at, "import { MOBILE_QUERY } from '../../../app/theme';\nexport const x = MOBILE_QUERY;\n");
    expect(app.join()).toMatch(/boundaries\/dependencies/);
    const fine = await problems(
      at,
      "import { apiRequest } from '../../../lib/api-client';\nimport { MOBILE_QUERY } from '../../../config/media';\nimport * as own from '../api/crawl';\nexport const x = [apiRequest, MOBILE_QUERY, own];\n",
    );
    expect(fine).toEqual([]);
  });

  it('refuse a repository importing a service and a service importing a route', async () => {
    const up = await problems(
      'apps/server/src/modules/avatars/avatars.repository.ts',
      "import { getAvatar } from './avatars.service';\nexport const x = getAvatar;\n",
    );
    expect(up.join()).toMatch(/A repository imports no service/);
    const route = await problems(
      'apps/server/src/modules/avatars/avatars.service.ts',
      "import { avatarRoutes } from './avatars.routes';\nexport const x = avatarRoutes;\n",
    );
    expect(route.join()).toMatch(/A service imports no route/);
  });

  it('hold the runtime parts: conversation parts reach engines only through their factory, engines import no conversation part, runtime repositories import no runtime part', async () => {
    const part = 'apps/server/src/runtime/conversation/turn-loop.ts';
    expect((await problems(part, "import { EchoEngine } from '../engines/echo';\nexport const x = EchoEngine;\n")).join()).toMatch(
      /only through their factory/,
    );
    expect(await problems(part, "import { echoEngine } from '../engines';\nexport const x = echoEngine;\n")).toEqual([]);
    const engine = 'apps/server/src/runtime/engines/llm.ts';
    expect((await problems(engine, "import { TurnLoop } from '../conversation/turn-loop';\nexport const x = TurnLoop;\n")).join()).toMatch(
      /An engine imports no conversation part/,
    );
    expect((await problems(engine, "import { Runtime } from '../runtime';\nexport const x = Runtime;\n")).join()).toMatch(
      /An engine imports no conversation part/,
    );
    expect(
      await problems(
        engine,
        "import type { Engine } from '../types';\nimport { echoEngine } from './index';\nexport const x: Engine = echoEngine();\n",
      ),
    ).toEqual([]);
    const repository = 'apps/server/src/runtime/repositories/usage-counters.repository.ts';
    expect(
      (await problems(repository, "import { TurnLoop } from '../conversation/turn-loop';\nexport const x = TurnLoop;\n")).join(),
    ).toMatch(/A runtime repository imports nothing of the runtime/);
    expect((await problems(repository, "import { createEngine } from '../engines';\nexport const x = createEngine;\n")).join()).toMatch(
      /A runtime repository imports nothing/,
    );
    expect(
      await problems(
        repository,
        "import type { DB } from '../../db/schema';\nimport type { ChatMessage } from '../types';\nexport type X = [DB, ChatMessage];\n",
      ),
    ).toEqual([]);
  });
});
