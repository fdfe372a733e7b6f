import { makeOrg } from '../../helpers/fixtures';
import { startGitRemoteServer, type GitRemoteServer } from '../../helpers/git-remote-server';
import { httpClient } from '../../helpers/http-client';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from './gitops-harness';

const TOKEN = 'remote-token-9f3c2a71';
const WRONG = 'not-the-token-5b8e04d2';

let platform: TestPlatform;
let remote: GitRemoteServer;
let http: ReturnType<typeof httpClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

beforeAll(async () => {
  remote = await startGitRemoteServer(TOKEN, ['mirror']);
  // The remote is on loopback: the outbound address policy lets it through only with these (docs/security.md A-65).
  const port = new URL(remote.urlOf('mirror')).port;
  platform = await startTestPlatform({
    env: { GIT_REMOTE_ALLOW_HTTP: 'true', NOTIFY_ALLOW_PRIVATE_TARGETS: 'true', NOTIFY_ALLOWED_PORTS: `443,${port}` },
  });
  http = httpClient(platform.url);
  org = await makeOrg(platform, ['owner', 'viewer']);
  owner = org.members.owner!.token;
  await makeProject(platform, owner, 'mirror', ['acme']);
}, 120_000);
afterAll(async () => {
  await remote.close();
  await platform.close();
});

type Push = { status: string; error: string | null; at: string; attempts: number } | null;

async function write(name: string) {
  const res = await http.put<{ commit: string }>('/api/v2/projects/mirror/files/content', {
    token: owner,
    body: { path: `notes/${name}.md`, content: `${name}\n`, message: `Add ${name}` },
  });
  expect(res.status).toBe(200);
  return res.body.commit;
}

/** The push result the commit list shows for `sha`, once there is one. */
function pushOf(sha: string) {
  return eventually(
    async () => {
      const res = await http.get<{ items: { sha: string; push: Push }[] }>('/api/v2/projects/mirror/commits', {
        token: owner,
      });
      return res.body.items.find((c) => c.sha === sha)?.push;
    },
    30_000,
    `push result of ${sha}`,
  );
}

describe('an external Git remote', () => {
  it('is configured with a sealed token that the API never returns, audited without the token', async () => {
    const withCredentials = await http.put('/api/v2/projects/mirror/remote', {
      token: owner,
      body: { url: remote.urlOf('mirror').replace('http://', `http://x:${TOKEN}@`) },
    });
    expect(withCredentials.status).toBe(400);

    const set = await http.put('/api/v2/projects/mirror/remote', {
      token: owner,
      body: { url: remote.urlOf('mirror'), token: TOKEN },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ url: remote.urlOf('mirror'), hasToken: true, updatedAt: expect.any(String) });
    const viewer = org.members.viewer!.token;
    const read = await http.get('/api/v2/projects/mirror/remote', { token: viewer });
    expect(read.body).toEqual(set.body);
    expect(read.text).not.toContain(TOKEN);
    const viewerSet = await http.put('/api/v2/projects/mirror/remote', {
      token: viewer,
      body: { url: remote.urlOf('mirror') },
    });
    expect(viewerSet.status).toBe(403);

    const row = (await platform.services.db('project_remotes').first('token_sealed')) as { token_sealed: string };
    expect(row.token_sealed).toMatch(/^v1\./);
    expect(row.token_sealed).not.toContain(TOKEN);
    const audit = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id, action: 'project.remote.set' })
      .select('category', 'details');
    expect(audit).toEqual([
      {
        category: 'configuration',
        details: expect.objectContaining({ url: remote.urlOf('mirror'), tokenChanged: true, hasToken: true }),
      },
    ]);
    expect(JSON.stringify(audit)).not.toContain(TOKEN);
  });

  it('receives every commit after it lands, and the commit list shows the push', async () => {
    const sha = await write('first');
    const push = await pushOf(sha);
    expect(push).toMatchObject({ status: 'pushed', error: null, attempts: 1 });
    expect(await remote.headOf('mirror')).toBe(sha);
  });

  it('records a failed push for a wrong token while the commit itself is fine', async () => {
    const before = await remote.headOf('mirror');
    const rotate = await http.put('/api/v2/projects/mirror/remote', {
      token: owner,
      body: { url: remote.urlOf('mirror'), token: WRONG },
    });
    expect(rotate.status).toBe(200);
    const sha = await write('second');
    const files = await http.get<{ commit: string }>('/api/v2/projects/mirror/files', { token: owner });
    expect(files.body.commit).toBe(sha);

    const push = await pushOf(sha);
    expect(push).toMatchObject({ status: 'failed', error: expect.stringMatching(/^authentication refused: /) });
    expect(push?.error).not.toContain(WRONG);
    expect(remote.refused()).toBeGreaterThan(0);
    expect(await remote.headOf('mirror')).toBe(before);

    const removed = await http.delete('/api/v2/projects/mirror/remote', { token: owner });
    expect(removed.status).toBe(204);
    const none = await http.get('/api/v2/projects/mirror/remote', { token: owner });
    expect(none.body).toEqual({ url: null, hasToken: false, updatedAt: null });
    const entries = await platform.services
      .db('audit_log')
      .where({ organization_id: org.org.id })
      .whereIn('action', ['project.remote.set', 'project.remote.remove'])
      .orderBy('seq')
      .select('action');
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      'project.remote.set',
      'project.remote.set',
      'project.remote.remove',
    ]);
    const sealed = JSON.stringify(await platform.services.db('audit_log').where({ organization_id: org.org.id }));
    expect(sealed).not.toContain(WRONG);
  });
});
