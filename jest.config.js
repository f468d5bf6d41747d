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
    project('browser'),
  ],
  testTimeout: 60_000,
  maxWorkers: 2,
};
