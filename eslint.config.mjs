import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Generated files are checked against their generators by tests (test/tooling/openapi-types.test.ts and others).
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      '.tools/**',
      'coverage/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // tsc's noUnusedLocals and noUnusedParameters report them (tsconfig.json): the rule cost ESLint a third of its
      // rule time (about 8 CPU-seconds a run) to say it again.
      '@typescript-eslint/no-unused-vars': 'off',
      'no-console': 'error',
    },
  },
  {
    // One bounded YAML/JSON parse (src/parse/bounded-parse.ts, docs/security.md A-61): no other file imports a YAML
    // parser. The validator's manifest parser is the other bounded one (per-document errors, its own limits).
    files: ['**/*.ts'],
    ignores: ['src/parse/bounded-parse.ts', 'src/validation/manifest/parse-manifest.ts', 'test/**', 'bench/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // Writing YAML is no parse: the CLI prints answers with js-yaml's `dump`.
          paths: [
            { name: 'yaml', message: 'Parse YAML through src/parse/bounded-parse.ts.' },
            { name: 'js-yaml', allowImportNames: ['dump'], message: 'Parse YAML through src/parse/bounded-parse.ts.' },
          ],
        },
      ],
    },
  },
  {
    // The browser app and its jsdom tests share one TypeScript program (web/tsconfig.json, with Node's and Jest's types
    // for the tests): the app's own code still must not reach for Node's globals.
    files: ['web/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-globals': ['error', 'process', 'Buffer', 'global', 'require', '__dirname', '__filename'] },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no I/O libraries.
    files: ['workflows/**/*.ts'],
    rules: {
      // Type imports are erased: a workflow may name its activities' types (activities/git.ts), never their code.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Workflows run in a sandbox: no Node built-ins.' },
            {
              group: ['fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'dns', 'stream'],
              message: 'Workflows run in a sandbox: no Node built-ins.',
            },
            { group: ['yaml', 'js-yaml'], message: 'Parse YAML through src/parse/bounded-parse.ts (in an activity).' },
            {
              group: [
                'knex',
                'pg',
                'simple-git',
                'nodemailer',
                '@temporalio/client',
                '@temporalio/worker',
                '../activities/*',
                '../src/db/*',
              ],
              allowTypeImports: true,
              message: 'Workflows do no I/O: call an activity.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'setTimeout', 'setInterval', 'fetch'],
    },
  },
);
