// Lint rules of the project (npm run lint). Formatting is Prettier's (npm run format), so no rule here is about layout.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** app.ts composes the pipeline from the parts below it: only the wiring above it (sandbox.ts) may import it. */
const APP_IMPORT = { regex: '(^|/)app\\.js$', message: 'Nothing below app.ts imports it: shared types live in src/kernel/.' };

/**
 * Calls that create, rename or remove folder entries: in src/ they go through src/store/file/durable-entries.ts, which syncs the
 * folders so that they survive a power cut (docs/durability.md).
 */
const ENTRY_CALLS = ['mkdir', 'rename', 'rm', 'rmdir', 'unlink', 'link', 'symlink', 'writeFile', 'appendFile', 'copyFile', 'cp', 'truncate'];
const fsCalls = (names) => {
  const message = 'Create, rename and remove files through src/store/file/durable-entries.ts, which makes folder entries durable.';
  const sync = [...names.map((n) => `${n}Sync`), 'createWriteStream', 'promises', 'default'];
  return [
    { name: 'node:fs/promises', importNames: [...names, 'default'], message },
    { name: 'node:fs', importNames: [...names, ...sync], message },
  ];
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.bench/', 'test-output/', 'src/openapi/schema.d.ts', 'src/control/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        Headers: 'readonly',
        Response: 'readonly',
        RequestInit: 'readonly',
        AbortController: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        NodeJS: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Removing a key named by a variable is what the schema rewriting and header filtering do.
      '@typescript-eslint/no-dynamic-delete': 'off',
    },
  },
  {
    // The house rules of src/: small files, functions that fit on a screen.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 250 }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  // Two import rules for src/. ESLint keeps one setting of a rule per file, so each block below says all that applies to its files.
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: fsCalls(ENTRY_CALLS), patterns: [APP_IMPORT] }] },
  },
  { files: ['src/server/sandbox.ts'], rules: { 'no-restricted-imports': ['error', { paths: fsCalls(ENTRY_CALLS) }] } },
  {
    // The file layer itself; a cache rebuilt when missing; an export or a report written where the user asked.
    files: ['src/store/file/durable-entries.ts', 'src/openapi/spec-cache.ts', 'src/cli/commands.ts', 'src/cli/diff-command.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [APP_IMPORT] }] },
  },
  {
    // A lock file need not survive a power cut (its process is gone then), but the data folder it is made in must.
    files: ['src/store/file/lock.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: fsCalls(['mkdir']), patterns: [APP_IMPORT] }] },
  },
  {
    // The engine knows no transport, file or database (src/README.md): those are handed to it by the adapters and stores.
    files: ['src/kernel/**/*.ts', 'src/v1/**/*.ts', 'src/control/**/*.ts', 'src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'node:https', 'node:http2', 'node:net', 'node:fs', 'node:fs/promises', 'express', 'pg'].map((name) => ({
            name,
            message: "The engine's folders know no transport, file or database: take what it needs as a parameter (src/README.md).",
          })),
          patterns: [APP_IMPORT],
        },
      ],
    },
  },
  {
    // No import cycles: a shared piece moves down into a module of its own that both sides import (src/README.md).
    // The TypeScript resolver maps the `.js` specifiers to their `.ts` files. The rule skips type-only imports;
    // test/unit/import-cycles.test.ts checks those too.
    files: ['src/**/*.ts', 'web/**/*.ts', 'contracts/**/*.ts', 'scripts/**/*.mjs'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.mts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  prettier,
);
