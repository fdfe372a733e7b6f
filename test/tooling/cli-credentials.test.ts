import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ConfigStore } from '../../cli/lib/config-store';
import { createRuntime } from '../../cli/lib/runtime';

const CREDENTIALS = {
  email: 'dev@example.com',
  refreshToken: 'r',
  refreshCookie: 'refresh_token',
  accessToken: 'secret-access-token-of-a',
  accessTokenExpiresAt: new Date(Date.now() + 600_000).toISOString(),
  organizationId: null,
};

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-config-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

// Issue 42 (Low): a config folder that already existed stayed world-readable (mkdir's mode only applies on creation).
it('makes the config folders 0700 and the files 0600 on every write, even when they already existed', () => {
  fs.mkdirSync(path.join(dir, 'credentials'), { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(path.join(dir, 'credentials'), 0o755);
  const store = new ConfigStore(dir);
  store.write({ currentContext: 'default', contexts: { default: { server: 'http://a.example' } } });
  store.writeCredentials('default', 'http://a.example', CREDENTIALS);
  const file = store.credentialsFile('default', 'http://a.example');
  expect([mode(dir), mode(path.join(dir, 'credentials')), mode(path.dirname(file))]).toEqual(['700', '700', '700']);
  expect([mode(path.join(dir, 'config.json')), mode(file)]).toEqual(['600', '600']);
});

// Issue 42 (Low): `--server` / DELIVERY_SERVER naming another server received the token stored for the context's.
it('never sends a token stored for one server to another', async () => {
  const seen: (string | undefined)[] = [];
  const other = http.createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.setHeader('Content-Type', 'application/json');
    res.end('{}');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  try {
    const store = new ConfigStore(dir);
    store.write({ currentContext: 'default', contexts: { default: { server: 'http://a.example' } } });
    store.writeCredentials('default', 'http://A.example:80/', CREDENTIALS);
    expect(store.readCredentials('default', 'http://a.example')).toEqual(CREDENTIALS);
    expect(store.readCredentials('default', elsewhere)).toBeNull();
    const viaEnv = createRuntime({}, { DELIVERY_CONFIG_DIR: dir, DELIVERY_SERVER: elsewhere });
    const viaFlag = createRuntime({ server: elsewhere }, { DELIVERY_CONFIG_DIR: dir });
    for (const rt of [viaEnv, viaFlag]) await rt.api.get('/api/v2/projects').catch(() => undefined);
    expect(seen).toEqual([undefined, undefined]);
  } finally {
    other.close();
  }
});
