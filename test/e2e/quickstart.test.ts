import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../src/paths';
import { exited, spawnScript } from '../helpers/child-process';
import { embeddedEnv } from '../helpers/embedded-env';
import { untilAnswering } from '../helpers/ready';
import { awayFromStepEdge, totp } from '../integration/identity/identity-harness';

/**
 * docs/quickstart.md, executed: every `sh` block, in order, in one bash, against the embedded platform started as
 * the `npm start` of the page's `console` block runs it (dist/scripts/start.js, built for the run). `npm` in the blocks runs in the
 * repository and `delivery` is bin/delivery.js, as `npm link` makes it (the shims below); the blocks' own polling loops
 * run under a deadline. Issue 32's traps it covers: a
 * tenant named by slug in a release, the controller's Healthy report by curl, a clone that stores no token.
 */
const DOC = path.join(repoRoot(), 'docs', 'quickstart.md');

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

let work: string;
let env: Record<string, string>;
let platform: ReturnType<typeof spawnScript> | undefined;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'quickstart-'));
  fs.chmodSync(work, 0o755);
  env = await embeddedEnv(path.join(work, 'data'));
  fs.mkdirSync(env.DATA_DIR!, { mode: 0o755 });
  const child = spawnScript('scripts/start.ts', [], env);
  platform = child;
  await untilAnswering(child, `http://127.0.0.1:${env.PORT}/readyz`, 90_000);
}, 120_000);

afterAll(async () => {
  if (platform) {
    platform.kill('SIGTERM');
    await exited(platform);
  }
  fs.rmSync(work, { recursive: true, force: true });
});

describe('docs/quickstart.md', () => {
  it('runs from the first user to a Healthy release and a Healthy promotion', () => {
    const blocks = shellBlocks(fs.readFileSync(DOC, 'utf8'));
    expect(blocks.length).toBeGreaterThan(5);
    const script = [
      'set -euo pipefail',
      `npm() { (cd ${JSON.stringify(repoRoot())} && command npm "$@"); }`,
      // What `npm link` (a console block) makes a command.
      `delivery() { node ${JSON.stringify(path.join(repoRoot(), 'bin', 'delivery.js'))} "$@"; }`,
      ...blocks,
    ].join('\n');
    const run = spawnSync('timeout', ['300', 'bash', '-c', script], {
      cwd: work,
      env: { ...process.env, ...env, API: `http://127.0.0.1:${env.PORT}` },
      encoding: 'utf8',
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect([run.status, output]).toEqual([0, expect.any(String)]);
    expect(run.stdout).toMatch(/^Healthy$/m);
    expect(run.stdout).toContain('image: registry.example.com/shop/web:1.1.0');
    expect(run.stdout).toMatch(/promotion\.\S+ {2}/);
    // Section 7: the CLI's status lists the Application, --wait ends Healthy, compare shows the version moved.
    expect(run.stdout).toMatch(/shop\.acme\.dev\.web|acme\s+dev\s+web/);
    expect(run.stdout).toMatch(/is Healthy at [0-9a-f]{12}/);
    expect(run.stdout).toContain('1.2.0');
    // The clone recipe leaves no credential in the clone's configuration.
    const gitConfig = fs.readFileSync(path.join(work, 'shop-repo', '.git', 'config'), 'utf8');
    expect(gitConfig).not.toMatch(/eyJ|token:|Authorization/);
  }, 320_000);

  it('signs in with MFA on: the sign-in block asks for the code, says to wait for the next one, never sets TOKEN=null', async () => {
    // The user the page made (the test above) turns MFA on, enrolling with the previous step's code.
    const api = `http://127.0.0.1:${env.PORT}`;
    const post = async (route: string, body: unknown, token?: string) => {
      const res = await fetch(`${api}${route}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };
    const login = await post('/api/v1/auth/login', { email: 'ops@example.com', password: 'a long passphrase' });
    expect(login.status).toBe(200);
    const token = login.body.accessToken!;
    const setup = await post('/api/v1/auth/mfa/totp/setup', {}, token);
    await awayFromStepEdge();
    const enrolment = await totp(setup.body.secret!, -1);
    expect((await post('/api/v1/auth/mfa/totp/enable', { code: enrolment }, token)).status).toBe(200);

    const signIn = shellBlocks(fs.readFileSync(DOC, 'utf8')).find((b) => b.includes('/api/v1/auth/login'))!;
    const script = ['set -euo pipefail', signIn, 'curl -sf "$API/api/v1/auth/me" -H "$AUTH" | jq -r .user.email'];
    const run = (code: string) =>
      spawnSync('timeout', ['60', 'bash', '-c', script.join('\n')], {
        cwd: work,
        env: { ...process.env, ...env, API: api },
        input: `${code}\n`,
        encoding: 'utf8',
      });
    // The enrolment's code again: refused, saying to wait for the next code; the block stops, with no token.
    const reused = run(enrolment);
    expect([reused.status, reused.stderr]).toEqual([1, expect.stringContaining('wait for the next code')]);
    expect(reused.stdout).not.toContain('ops@example.com');
    const signedIn = run(await totp(setup.body.secret!));
    expect([signedIn.status, signedIn.stdout.trim(), signedIn.stderr]).toEqual([0, 'ops@example.com', '']);
  }, 120_000);
});
