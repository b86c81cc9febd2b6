// ESLint: the recommended JavaScript and TypeScript rules, without type information (fast; the
// type checker is `npm run typecheck`). Layout is Prettier's (`npm run format:check`), so no
// stylistic rules here.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// The globals of the Node that runs the scripts (process, performance, fetch, URL...): those of the
// Node running ESLint.
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

export default defineConfig(
  globalIgnores(['dist/', 'openapi/generated/', 'bench/results/', 'reports/', '.tmp/']),
  {
    files: ['**/*.{ts,mjs,js,cjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Prettier breaks a long chain as `request(app)\n  [method](...)`; with semicolons everywhere
      // there is no ASI hazard left for this rule to catch (eslint-config-prettier turns it off too).
      'no-unexpected-multiline': 'off',
      // `_name` marks a parameter or binding kept on purpose (a handler's fixed signature, a
      // destructured field left out of a copy).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'all',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // tsconfig sets verbatimModuleSyntax: a type-only import says so (`import type`). A lazily
      // loaded module's types are spelled `typeof import('...')` (src/auth/tokens.ts).
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  {
    // Node scripts and configuration in plain JavaScript: the type checker does not see their globals.
    files: ['**/*.{mjs,js,cjs}'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
    // CommonJS files load one another with require.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
