import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';
import { exited, runScript, spawnScript } from '../helpers/child-process';
import { eventually, freePort } from '../helpers/net';

/** `npm start` on embedded defaults, as a user runs it (from source here; the README command builds first). */
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-e2e-'));
  fs.chmodSync(dataDir, 0o755);
  env = {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
  };
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function startPlatform() {
  const child = spawnScript('scripts/start.ts', [], env);
  await eventually(
    async () => {
      const res = await fetch(`http://127.0.0.1:${env.PORT}/readyz`).catch(() => null);
      return res?.status === 200;
    },
    60_000,
    `readiness (output: ${child.output()})`,
  );
  return child;
}

async function stopPlatform(child: ReturnType<typeof spawnScript>) {
  child.kill('SIGTERM');
  expect(await exited(child)).toBe(0);
  for (const port of [env.PORT, env.TEMPORAL_PORT, env.TEMPORAL_UI_PORT, env.EMBEDDED_PG_PORT]) {
    expect(await portOpen(Number(port))).toBe(false);
  }
}

describe('embedded run', () => {
  it('comes up ready with the Temporal UI, keeps data across a restart, and leaves nothing running', async () => {
    const first = await startPlatform();
    expect(first.output()).toContain(`Temporal UI: http://127.0.0.1:${env.TEMPORAL_UI_PORT}`);
    const ui = await fetch(`http://127.0.0.1:${env.TEMPORAL_UI_PORT}/`);
    expect(ui.status).toBe(200);

    // The operator CLI works against the running platform's embedded database.
    const created = await runScript(
      'scripts/admin.ts',
      ['create-user', '--email', 'keep@example.test', '--password', 'long enough pw'],
      env,
    );
    expect(created.code).toBe(0);
    await stopPlatform(first);

    const second = await startPlatform();
    const client = new pg.Client({
      connectionString: `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/platform`,
    });
    await client.connect();
    const { rows } = await client.query('SELECT email FROM users');
    await client.end();
    expect(rows.map((r: { email: string }) => r.email)).toContain('keep@example.test');
    await stopPlatform(second);
  }, 180_000);
});
