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
);
