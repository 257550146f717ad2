// Lint rules of the project (npm run lint). Formatting is Prettier's (npm run format), so no rule here is about layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.bench/', 'src/openapi/schema.d.ts', 'src/control/schema.d.ts'] },
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
  {
    // app.ts composes the pipeline from the parts below it: only the wiring above it (sandbox.ts) may import it.
    files: ['src/**/*.ts'],
    ignores: ['src/sandbox.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)app\\.js$', message: 'Nothing below app.ts imports it: shared types live in src/operation.ts.' }] },
      ],
    },
  },
  prettier,
);
