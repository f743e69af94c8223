// Lint: typescript-eslint's recommended rules, React hooks, and the import directions of
// docs/conventions.md (shared imports nothing internal; apps never import each other).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noApps = (apps) => ({
  'no-restricted-imports': ['error', {
    patterns: apps.map((a) => ({ group: [`@parla/${a}`, `@parla/${a}/*`, `**/apps/${a}/**`], message: `Do not import ${a} from here.` })),
  }],
});

/** SQL only in repositories (issue 12): a query built or written anywhere else in the server is
 *  an error. Repositories are `*.repository.ts` and `runtime/repositories/*`; `db/` holds the
 *  migrations and the database itself. */
const QUERY_OUTSIDE_REPOSITORY = 'SQL lives in a *.repository.ts (conventions: routes → services → repositories).';
export const sqlOnlyInRepositories = {
  files: ['apps/server/src/**/*.ts'],
  ignores: [
    'apps/server/src/**/*.repository.ts',
    'apps/server/src/runtime/repositories/**',
    'apps/server/src/db/**',
    'apps/server/src/**/*.test.ts',
    'apps/server/src/**/*.test-support.ts',
    // Knowledge ranking (retrieval2's area this round): its queries are the ranking itself.
    'apps/server/src/modules/knowledge/knowledge.search.ts',
    'apps/server/src/modules/knowledge/knowledge.embeddings.ts',
  ],
  rules: {
    'no-restricted-syntax': ['error',
      { selector: "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)$/]", message: QUERY_OUTSIDE_REPOSITORY },
      { selector: "TaggedTemplateExpression[tag.name='sql']", message: QUERY_OUTSIDE_REPOSITORY },
    ],
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'playwright-report/**', 'apps/server/assets/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/player/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/set-state-in-effect': 'off' },
  },
  { files: ['packages/shared/**'], rules: noApps(['server', 'web', 'player']) },
  { files: ['apps/server/**'], rules: noApps(['web', 'player']) },
  { files: ['apps/web/**'], rules: noApps(['server', 'player']) },
  { files: ['apps/player/**'], rules: noApps(['server', 'web']) },
  sqlOnlyInRepositories,
);
