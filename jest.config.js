// One jest project per tier; each runs alone with `--selectProjects <name>` (see package.json).
const transform = { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] };

const project = (name, extra = {}) => ({
  displayName: name,
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform,
  roots: ['<rootDir>/test'],
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  ...extra,
});

export default {
  projects: [
    project('unit'),
    project('contract'),
    project('cdk'),
    project('integration'),
    project('e2e'),
    // The same e2e tests on the emulated AWS runtime (test/support/local-server.ts reads E2E_RUNTIME).
    project('e2e-aws', {
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      setupFiles: ['<rootDir>/test/support/e2e-aws.ts'],
    }),
    project('browser'),
    // Both client libraries (clients/) driven against the local server; the client sources import
    // with `.js` extensions, as their NodeNext build needs.
    project('clients', { moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' } }),
  ],
  testTimeout: 60_000,
  maxWorkers: 2,
  // In ESM mode a worker keeps the modules of every file it ran (about 55 MB a cdk file): after a file
  // that leaves it over this, the worker is replaced. Without it the two workers end a full run holding
  // 1-2 GB each and take longer than jest's 500 ms to exit ("a worker process has failed to exit
  // gracefully"); replacing one costs about a second.
  workerIdleMemoryLimit: '512MB',
  // The longest files first, by a committed table of a full run's times (scripts/test-sequencer.mjs).
  testSequencer: '<rootDir>/scripts/test-sequencer.mjs',
};
