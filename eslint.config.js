import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Use `import * as z from 'zod/mini'` (every file). */
const ZOD_NAMESPACE_IMPORT = {
  selector: "ImportDeclaration[source.value=/^zod(\\/mini)?$/] > ImportSpecifier[imported.name='z']",
  message: "Use `import * as z from 'zod/mini'`: it tree-shakes.",
};

/** Process configuration is read through functions/platform/config.ts. */
const PROCESS_ENV = {
  object: 'process',
  property: 'env',
  message:
    'Read configuration through functions/platform/config.ts (getStringFromEnv, getOptionalStringFromEnv, ...).',
};

/** Time comes from the clock port, so tests (and the development clock) can move it. */
const DATE_NOW = {
  object: 'Date',
  property: 'now',
  message:
    "Take the time from the clock port (deps.clock.now(), a `now` passed in; systemClock where the wall clock is meant, as for another party's clock); performance.now() for a duration.",
};

const REPOSITORY_ONLY =
  "Table access belongs in the area's repositories (functions/<area>/infra/repositories/): they own the key and index formats (docs/decisions.md, issue 22).";

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
      '.venv-clients/',
      // Generator output (scripts/clients.ts checks it against a fresh generation) and a client's build.
      'clients/typescript/src/generated/',
      'clients/typescript/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      'no-restricted-syntax': ['error', ZOD_NAMESPACE_IMPORT],
    },
  },
  {
    // Repositories own the keys: in an area, only infra/repositories/** names the Table port, reads a
    // table off the ports (`deps.tables`), pages a table or spells a platform key. The platform kernel
    // (rate limit, idempotency, tenancy) keeps its own tables' keys, each in its one module.
    files: ['functions/{connectors,directory,docs,events,webhooks}/**/*.ts'],
    ignores: ['functions/*/infra/repositories/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/platform/ports'],
              importNames: [
                'Table',
                'Tables',
                'Item',
                'Key',
                'Condition',
                'Update',
                'Query',
                'Page',
                'IndexName',
              ],
              message: REPOSITORY_ONLY,
            },
            {
              group: ['**/platform/pagination'],
              importNames: ['queryAll', 'queryWindow'],
              message: REPOSITORY_ONLY,
            },
            { group: ['**/platform/tenancy'], importNames: ['organizationKey'], message: REPOSITORY_ONLY },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ZOD_NAMESPACE_IMPORT,
        { selector: "MemberExpression[property.name='tables']", message: REPOSITORY_ONLY },
        { selector: "ObjectPattern > Property[key.name='tables']", message: REPOSITORY_ONLY },
      ],
    },
  },
  {
    // Configuration is read through one place (functions/platform/config.ts); the compositions and the
    // development runtime, which set the environment up, may read it directly.
    // Time is read through one place too (functions/platform/clock.ts); the development runtime reads it
    // there as well (systemClock: the clock of the AWS it emulates, which the tests' clock never moves).
    // One rule entry per file set: a later block's options replace an earlier block's for the same rule.
    files: ['functions/**/*.ts'],
    ignores: [
      'functions/platform/config.ts',
      'functions/platform/clock.ts',
      'functions/compose/**',
      'functions/dev-runtime/**',
    ],
    rules: { 'no-restricted-properties': ['error', PROCESS_ENV, DATE_NOW] },
  },
  {
    files: ['functions/platform/config.ts', 'functions/compose/**/*.ts', 'functions/dev-runtime/**/*.ts'],
    rules: { 'no-restricted-properties': ['error', DATE_NOW] },
  },
  {
    files: ['functions/platform/clock.ts'],
    rules: { 'no-restricted-properties': ['error', PROCESS_ENV] },
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
