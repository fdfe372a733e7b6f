import { runScript } from '../../helpers/child-process';
import { harnessState } from '../../helpers/harness-state';

/**
 * Issue 34 item 2: `serve api|worker` (npm run api / npm run worker) refuse to start without what every process of a
 * deployment must share, exit 78 (EX_CONFIG) naming each missing setting, before touching any engine.
 */
const engines = {
  DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  TEMPORAL_ADDRESS: harnessState().temporalAddress,
  JWT_PRIVATE_KEY: '',
  JWT_PUBLIC_KEY: '',
  MFA_ENCRYPTION_KEY: '',
  PUBLIC_URL: '',
  GIT_REPOSITORIES_DIR: '',
};

describe('split mode', () => {
  it.each(['api', 'worker'])(
    'refuses `serve %s` without the shared keys, PUBLIC_URL and GIT_REPOSITORIES_DIR, naming each',
    async (role) => {
      const { code, output } = await runScript('scripts/serve.ts', [role], engines);
      expect(code).toBe(78);
      expect(output.trim()).toBe(
        'configuration error: split mode needs the shared settings JWT_PRIVATE_KEY, JWT_PUBLIC_KEY, ' +
          'MFA_ENCRYPTION_KEY, PUBLIC_URL, GIT_REPOSITORIES_DIR (docs/operations.md)',
      );
    },
  );

  it('names only what is missing', async () => {
    const { code, output } = await runScript('scripts/serve.ts', ['worker'], {
      ...engines,
      JWT_PRIVATE_KEY: 'set',
      JWT_PUBLIC_KEY: 'set',
      MFA_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      GIT_REPOSITORIES_DIR: '/srv/shared/git',
    });
    expect(code).toBe(78);
    expect(output).toContain('split mode needs the shared settings PUBLIC_URL (docs/operations.md)');
  });
});
