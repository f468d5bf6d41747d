import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      '.data/',
      '.data-aws/',
      '.emulators/',
      '.venv-emulators/',
      '.build/',
      '.dependency-cruiser.cjs',
      '.venv-schemathesis/',
      '.schemathesis/',
      'coverage/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value=/^zod(\\/mini)?$/] > ImportSpecifier[imported.name='z']",
          message: "Use `import * as z from 'zod/mini'`: it tree-shakes.",
        },
      ],
    },
  },
  {
    // Core and handlers never talk to AWS directly: only the aws adapters do. They validate with
    // zod/mini: classic zod adds ~60 KB to every Lambda bundle (test/cdk/bundle-budget.test.ts);
    // `npx tsx scripts/zod-mini-codemod.ts` rewrites classic schemas.
    files: ['functions/**/*.ts'],
    ignores: ['functions/adapters/aws/**', 'functions/dev-runtime/emulated-aws/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: "Use `import * as z from 'zod/mini'` (the bundle budget)." }],
          patterns: [
            {
              group: ['@aws-sdk/*'],
              message: 'Use a port; only functions/adapters/aws (and the emulated runtime) talk to AWS.',
            },
          ],
        },
      ],
    },
  },
);
