// Lint: typescript-eslint's recommended rules, React hooks, and the import directions of
// docs/conventions.md (shared imports nothing internal; apps never import each other).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';

const noApps = (apps) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: apps.map((a) => ({ group: [`@parla/${a}`, `@parla/${a}/*`, `**/apps/${a}/**`], message: `Do not import ${a} from here.` })),
    },
  ],
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
    'no-restricted-syntax': [
      'error',
      {
        selector:
          'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)$/]',
        message: QUERY_OUTSIDE_REPOSITORY,
      },
      { selector: "TaggedTemplateExpression[tag.name='sql']", message: QUERY_OUTSIDE_REPOSITORY },
    ],
  },
};

/** Layers (issue 12 item 7, eslint-plugin-boundaries, decision 009): web features import only
 *  components, lib, config and their own folder; server routes → services → repositories (never
 *  back up); the runtime's parts as in decision 610. */
const resolver = { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } } };
export const webBoundaries = {
  files: ['apps/web/src/**/*.{ts,tsx}'],
  plugins: { boundaries },
  settings: {
    ...resolver,
    'boundaries/include': ['apps/web/src/**/*'],
    'boundaries/elements': [
      { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
      { type: 'web-components', pattern: 'apps/web/src/components' },
      { type: 'web-lib', pattern: 'apps/web/src/lib' },
      { type: 'web-config', pattern: 'apps/web/src/config' },
      { type: 'web-app', pattern: 'apps/web/src/app' },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        message: 'A web feature imports only components, lib, config and its own folder.',
        policies: [
          {
            from: { element: { type: 'web-feature' } },
            disallow: [
              { to: { element: { type: 'web-app' } } },
              { to: { element: { type: 'web-feature', captured: { feature: '!{{from.captured.feature}}' } } } },
            ],
          },
          // Debt (issue 12): the avatar editor composes the brain, advanced and key features.
          {
            from: { element: { type: 'web-feature', captured: { feature: 'avatars' } } },
            allow: [{ to: { element: { type: 'web-feature', captured: { feature: '{advanced,brain,encryption-keys}' } } } }],
          },
          {
            from: { element: { type: '{web-components,web-lib,web-config}' } },
            disallow: [{ to: { element: { type: '{web-feature,web-app}' } } }],
          },
        ],
      },
    ],
  },
};

/** Server layers: routes → services → repositories, never back up (a repository imports no
 *  service or route; a service imports no route). Keeps noApps' patterns, since a later block's
 *  no-restricted-imports replaces an earlier one's. */
const serverApps = noApps(['web', 'player'])['no-restricted-imports'][1].patterns;
const layer = (files, groups, message, ignores = []) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [...serverApps, { ...(typeof groups === 'string' ? { regex: groups } : { group: groups }), message }] },
    ],
  },
});
export const serverLayers = [
  layer(
    ['apps/server/src/**/*.service.ts'],
    ['**/*.routes', '**/*.routes.ts'],
    'A service imports no route (routes → services → repositories).',
  ),
  layer(
    ['apps/server/src/**/*.repository.ts', 'apps/server/src/runtime/repositories/**/*.ts'],
    ['**/*.routes', '**/*.routes.ts', '**/*.service', '**/*.service.ts', '**/runtime/conversation/*'],
    'A repository imports no service, route or runtime part (routes → services → repositories).',
  ),
];

/** The runtime's parts (decision 610, issue 12): a conversation part reaches the engines only
 *  through their factory (`engines/index`), never one engine's module; an engine imports no
 *  conversation part, node or the runtime that owns it (it talks through `EngineHost`/`EngineDeps`);
 *  the runtime's repositories import nothing of the runtime but their own folder and `types`.
 *  Tests are exempt: they drive whole conversations through real engines. */
const RUNTIME = 'apps/server/src/runtime';
const TESTS = [`${RUNTIME}/**/*.test.ts`];
export const runtimeParts = [
  layer(
    [`${RUNTIME}/conversation/**/*.ts`],
    ['../engines/*', '!../engines/index', '**/runtime/engines/*', '!**/runtime/engines/index'],
    'A conversation part reaches engines only through their factory, engines/index (decision 610).',
    TESTS,
  ),
  layer(
    [`${RUNTIME}/engines/**/*.ts`],
    [
      '../conversation',
      '../conversation/*',
      '**/runtime/conversation/*',
      '../nodes/*',
      '../runtime',
      '../admission',
      '../stores',
      '../repositories/*',
    ],
    'An engine imports no conversation part, node, store or the runtime; it talks through EngineHost and EngineDeps (decision 610).',
    TESTS,
  ),
  layer(
    [`${RUNTIME}/repositories/**/*.ts`],
    '^\\.\\./(?!types$|\\.\\./)|\\.(routes|service)$',
    'A runtime repository imports nothing of the runtime but its own folder and types (decision 610).',
    TESTS,
  ),
];

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
  webBoundaries,
  ...serverLayers,
  ...runtimeParts,
);
