import fs from 'node:fs';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { repoRoot } from '../../../src/paths';
import { orasPython, tool } from './oci-clients';
import { makeImageLayout } from './oci-layout';
import { scratchDir } from '../../helpers/scratch-dir';

let platform: TestPlatform;
let host: string;
let org: Awaited<ReturnType<typeof makeOrg>>;
let python: string;

beforeAll(async () => {
  python = orasPython();
  platform = await startTestPlatform();
  host = new URL(platform.url).host;
  org = await makeOrg(platform, ['owner', 'viewer']);
}, 300_000);
afterAll(() => platform.close());

/** `skopeo copy` against the plain-HTTP test server with an access token as the password of whichever side is ours. */
function skopeoCopy(side: 'src' | 'dest', token: string, from: string, to: string) {
  return tool('skopeo', [
    '--insecure-policy',
    'copy',
    `--${side}-tls-verify=false`,
    `--${side}-creds`,
    `token:${token}`,
    from,
    to,
  ]);
}

describe('real OCI clients against /v2/*', () => {
  it('skopeo copies an OCI image layout in and back out, digests unchanged', async () => {
    const layout = makeImageLayout({ 'hello.txt': 'hello registry\n' });
    const ref = `docker://${host}/${org.org.slug}/app:v1`;
    const push = await skopeoCopy('dest', org.members.owner!.token, `oci:${layout.dir}:v1`, ref);
    expect([push.ok, push.stderr]).toEqual([true, '']);

    const out = scratchDir('oci-pulled-');
    const pull = await skopeoCopy('src', org.members.viewer!.token, ref, `oci:${out}:v1`);
    expect([pull.ok, pull.stderr]).toEqual([true, '']);
    const index = JSON.parse(fs.readFileSync(path.join(out, 'index.json'), 'utf8')) as {
      manifests: { digest: string }[];
    };
    expect(index.manifests[0]!.digest).toBe(layout.manifestDigest);
  });

  it('a viewer cannot push with skopeo', async () => {
    const layout = makeImageLayout({ 'x.txt': 'x' });
    const push = await skopeoCopy(
      'dest',
      org.members.viewer!.token,
      `oci:${layout.dir}:v1`,
      `docker://${host}/${org.org.slug}/viewer-push:v1`,
    );
    expect(push.ok).toBe(false);
    expect(push.stderr).toMatch(/denied/i);
  });

  it('the oras Python package pushes (chunked) and pulls an artifact with a custom media type', async () => {
    const dir = scratchDir('oras-');
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'release notes\n'.repeat(1000));
    const script = path.join(repoRoot(), 'test/fixtures/registry/oras_client.py');
    const target = `${org.org.slug}/notes:v1`;
    const push = await tool(python, [
      script,
      'push',
      host,
      target,
      org.members.owner!.token,
      file,
      'application/vnd.acme.notes.v1+text',
    ]);
    expect([push.ok, push.stderr.slice(-1500)]).toEqual([true, '']);
    const out = scratchDir('oras-out-');
    const pull = await tool(python, [script, 'pull', host, target, org.members.viewer!.token, out]);
    expect([pull.ok, pull.stderr.slice(-500)]).toEqual([true, expect.any(String)]);
    expect(fs.readFileSync(path.join(out, 'notes.txt'), 'utf8')).toBe('release notes\n'.repeat(1000));
  });
});
