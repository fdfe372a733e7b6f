import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadOrCreateKeyFile } from '../../../src/identity/signing-keys';

/**
 * The embedded run generates its JWT key pair once under DATA_DIR. Processes (or calls) that start together must end
 * up with the one key in the file, never each with their own: a replica signing with a key that was overwritten on
 * disk issues tokens nobody else accepts after a restart.
 */
describe('generated JWT signing key file', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jwt-key-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('concurrent first starts share the key that is on disk', async () => {
    const file = path.join(dir, 'secrets', 'jwt-signing-key.json');
    const pairs = await Promise.all(Array.from({ length: 4 }, () => loadOrCreateKeyFile(file)));
    const onDisk = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    for (const pair of pairs) expect(pair).toEqual(onDisk);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['jwt-signing-key.json']);
  });

  it('a later start reads the same key', async () => {
    const file = path.join(dir, 'jwt-signing-key.json');
    const first = await loadOrCreateKeyFile(file);
    expect(await loadOrCreateKeyFile(file)).toEqual(first);
  });
});
