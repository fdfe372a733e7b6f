import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScript } from '../helpers/child-process';
import { freePort } from '../helpers/net';

/**
 * Issue 32 trap: the operator CLI with another DATA_DIR or port silently created a fresh embedded database, migrated
 * it, created the user there and exited 0, so the login to the running platform failed. It now refuses, naming the
 * DATA_DIR it looked at, unless --init asks for a new database.
 */
describe('npm run admin without a platform database', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-cli-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to create one, names the DATA_DIR and the port it looked at, and creates nothing', async () => {
    const port = await freePort();
    const run = await runScript(
      'scripts/admin.ts',
      ['create-user', '--email', 'ops@example.test', '--password', 'a long passphrase', '--name', 'Ops'],
      { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) },
    );
    expect(run.code).toBe(2);
    expect(run.output).toContain(`nothing answers on 127.0.0.1:${port} (EMBEDDED_PG_PORT)`);
    expect(run.output).toContain(`DATA_DIR ${dataDir} holds none`);
    expect(run.output).toContain('--init');
    expect(fs.readdirSync(dataDir).filter((f) => f !== 'run')).toEqual([]);
  }, 60_000);

  it('lists add-member in its usage', async () => {
    const run = await runScript('scripts/admin.ts', [], {});
    expect(run.code).toBe(2);
    expect(run.output).toMatch(/add-member --org S --email E --role owner\|admin\|member\|viewer/);
  }, 60_000);
});
