// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import fs from 'node:fs';
import path from 'node:path';
import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { makeProject } from '../gitops/gitops-harness';
import { awayFromStepEdge, totp } from '../identity/identity-harness';
import { releaseClient } from '../releases/release-harness';
import { cliRunner } from './cli-harness';
import { ConfigStore } from '../../../cli/lib/config-store';
import { pinAsRollback } from '../../helpers/pins';

/**
 * The `delivery` command against the real platform: login with MFA (password and code on stdin), a release followed
 * with --wait while another member approves and the controller reports, a Blocked promotion whose --wait times out
 * naming its causes, a CI-style run with a project API key, and the credentials file only the user can read.
 */
let platform: TestPlatform;
let api: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let cli: ReturnType<typeof cliRunner>;
let tenants: Record<string, string>;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'admin', 'member']);
  cli = cliRunner(platform.url);
  const owner = org.members.owner!.token;
  tenants = await makeProject(platform, owner, 'shop', ['acme']);
  await api.http.patch('/api/v2/projects/shop/policy', { token: owner, body: { releases: { autoDeploy: true } } });
  const policy = await api.http.post('/api/v2/approval-policies', {
    token: owner,
    body: {
      project: 'shop',
      name: 'prod gate',
      environments: ['prod'],
      requiredApprovals: 1,
      eligibleApprovers: { roles: ['admin'] },
    },
  });
  expect(policy.status).toBe(201);
}, 120_000);
afterAll(async () => {
  cli.close();
  await platform.close();
});

async function enableMfa(email: string, password: string): Promise<string> {
  const login = await api.http.post<{ accessToken: string }>('/api/v1/auth/login', { body: { email, password } });
  expect(login.status).toBe(200);
  const setup = await api.http.post<{ secret: string }>('/api/v1/auth/mfa/totp/setup', {
    token: login.body.accessToken,
  });
  const enabled = await api.http.post('/api/v1/auth/mfa/totp/enable', {
    token: login.body.accessToken,
    body: { code: await totp(setup.body.secret, -1) },
  });
  expect(enabled.status).toBe(200);
  return setup.body.secret;
}

describe('delivery CLI', () => {
  it('signs in with password and MFA code, keeps the session in files only the user can read', async () => {
    const member = org.members.member!;
    const secret = await enableMfa(member.user.email, member.password);
    const wrong = await cli.run(['login', '--email', member.user.email, '--password-stdin'], { stdin: 'not-it\n' });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('error:');

    await awayFromStepEdge();
    const login = await cli.run(['login', '--email', member.user.email, '--password-stdin'], {
      stdin: `${member.password}\n${await totp(secret)}\n`,
    });
    expect([login.code, login.stderr]).toEqual([
      0,
      expect.stringContaining(`signed in to ${platform.url} as ${member.user.email}`),
    ]);
    expect(login.stderr).toContain(`organization ${org.org.slug}, member`);
    const credentials = new ConfigStore(cli.configDir).credentialsFile('default', platform.url);
    expect(credentials).toBe(
      path.join(cli.configDir, 'credentials', 'default', `${encodeURIComponent(new URL(platform.url).origin)}.json`),
    );
    expect(fs.statSync(credentials).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(credentials, 'utf8')).toContain('refreshToken');

    const who = await cli.run(['whoami', '-o', 'json']);
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({
      user: { email: member.user.email },
      organization: { slug: org.org.slug },
    });

    // The stored access token is made stale: the next command refreshes it by itself (single-use refresh token).
    const stored = JSON.parse(fs.readFileSync(credentials, 'utf8')) as { refreshToken: string };
    fs.writeFileSync(credentials, JSON.stringify({ ...stored, accessTokenExpiresAt: new Date(0).toISOString() }), {
      mode: 0o600,
    });
    const again = await cli.run(['whoami', '-o', 'json']);
    expect(again.code).toBe(0);
    expect((JSON.parse(fs.readFileSync(credentials, 'utf8')) as { refreshToken: string }).refreshToken).not.toBe(
      stored.refreshToken,
    );

    const set = await cli.run(['context', 'set', '--project', 'shop']);
    expect(set.code).toBe(0);
    const contexts = await cli.run(['context', 'list']);
    expect(contexts.stdout).toMatch(/\*\s+default\s+http:\/\/127\.0\.0\.1:\d+\s+\S+\s+shop\s+yes/);
  }, 90_000);

  it('creates a release with --wait, shows each step live while an admin approves and the controller reports, exits 0', async () => {
    const following = cli.run([
      'release',
      'create',
      '--env',
      'prod',
      '--tenant',
      'acme',
      '--set',
      'web=2.0.0',
      '--wait',
      '--timeout',
      '60s',
      '--interval',
      '200ms',
    ]);
    const release = await eventually(
      async () => {
        const page = await api.http.get<{ items: { id: string; status: string }[] }>(
          '/api/v2/projects/shop/releases?status=PendingApproval',
          {
            token: org.members.owner!.token,
          },
        );
        const found = page.body.items[0];
        if (!found) throw new Error(`no pending release yet; cli: ${following.output()}`);
        return found;
      },
      30_000,
      'the CLI release waiting for approval',
    );
    await eventually(
      async () => following.output().includes('waiting for approval (0 of 1 received, policy prod gate)'),
      10_000,
      'the approval step shown',
    );
    const approved = await api.http.post(`/api/v2/releases/${release.id}/approve`, {
      token: org.members.admin!.token,
      body: {},
    });
    expect(approved.status).toBe(200);
    const syncing = await api.status(org.members.owner!.token, release.id, 'Syncing');
    await eventually(
      async () => following.output().includes('waiting for the controller'),
      10_000,
      'the sync step shown',
    );
    await api.reportSync(org.members.owner!.token, release.id, syncing.commitSha!);

    const done = await following;
    expect([done.code, done.stderr]).toEqual([0, expect.stringContaining(`created release ${release.id}`)]);
    const steps = done.stdout
      .split('\n')
      .filter((l) => /^\d{4}-\d\d-\d\dT/.test(l))
      .map((l) => l.split(' ')[1]);
    expect(steps).toEqual(expect.arrayContaining(['PendingApproval', 'Syncing']));
    expect(steps.indexOf('PendingApproval')).toBeLessThan(steps.indexOf('Syncing'));
    expect(done.stdout).toContain(`release ${release.id} is Healthy at ${syncing.commitSha!.slice(0, 12)} (acme/prod)`);

    const status = await cli.run(['status', '--env', 'prod', '-o', 'json']);
    expect(status.code).toBe(0);
    const web = (JSON.parse(status.stdout) as { items: Record<string, unknown>[] }).items.find(
      (r) => r.tenant === 'acme' && r.service === 'web',
    );
    expect(web).toMatchObject({ desired: { version: '2.0.0' }, live: { healthStatus: 'Healthy' }, current: true });
    const table = await cli.run(['status', '--env', 'prod']);
    expect(table.stdout).toMatch(/acme\s+prod\s+web\s+2\.0\.0\s+2\.0\.0\s+Synced\s+Healthy\s+yes/);

    const history = await cli.run(['release', 'history', release.id]);
    expect(history.code).toBe(0);
    expect(history.stdout).toContain(org.members.admin!.user.email);
  }, 120_000);

  it('follows a Blocked promotion until --timeout and exits 3 naming the causes', async () => {
    const promote = await cli.run([
      'promote',
      '--yes',
      '--from',
      'dev',
      '--to',
      'prod',
      '--wait',
      '--timeout',
      '4s',
      '--interval',
      '300ms',
    ]);
    expect(promote.code).toBe(3);
    expect(promote.stdout).toMatch(/Blocked — blocked by .*approvals: /);
    expect(promote.stderr).toMatch(/error: timed out after 4s: Blocked — blocked by .*approvals/);
  }, 60_000);

  it('runs in CI with a project API key: a release created, JSON out, no stored session needed', async () => {
    const key = await api.http.post<{ key: string }>('/api/v2/projects/shop/api-keys', {
      token: org.members.owner!.token,
      body: { name: 'ci', scopes: ['read', 'write'] },
    });
    expect(key.status).toBe(201);
    const created = await cli.run(
      [
        'release',
        'create',
        '-p',
        'shop',
        '--env',
        'dev',
        '--tenant',
        tenants.acme!,
        '--set',
        'web=1.1.0',
        '-o',
        'json',
      ],
      {
        env: { DELIVERY_TOKEN: key.body.key, DELIVERY_CONFIG_DIR: path.join(cli.configDir, 'ci-empty') },
      },
    );
    expect([created.code, created.stderr]).toEqual([0, '']);
    const body = JSON.parse(created.stdout) as { id: string; environment: string; tenantId: string };
    expect(body).toMatchObject({ environment: 'dev', tenantId: tenants.acme });
    expect(
      (await api.http.get<{ createdBy: string }>(`/api/v2/releases/${body.id}`, { token: org.members.owner!.token }))
        .body.createdBy,
    ).toContain('api-key');

    const refused = await cli.run(['release', 'list', '-p', 'shop'], {
      env: { DELIVERY_TOKEN: 'not-a-key', DELIVERY_CONFIG_DIR: path.join(cli.configDir, 'ci-empty') },
    });
    expect(refused.code).toBe(4);
  }, 60_000);

  it('runs a smoke test with a project API key: whoami names the key, its project and scopes; approvals lists its project', async () => {
    const owner = org.members.owner!.token;
    const key = await api.http.post<{ id: string; key: string }>('/api/v2/projects/shop/api-keys', {
      token: owner,
      body: { name: 'smoke', scopes: ['read'] },
    });
    const env = { DELIVERY_TOKEN: key.body.key, DELIVERY_CONFIG_DIR: path.join(cli.configDir, 'ci-empty') };
    const who = await cli.run(['whoami', '-o', 'json'], { env });
    expect([who.code, who.stderr]).toEqual([0, '']);
    const view = JSON.parse(who.stdout) as { paths: { method: string; path: string }[] };
    expect(view).toMatchObject({
      kind: 'api_key',
      credential: { id: key.body.id, name: 'smoke' },
      organization: { slug: org.org.slug },
      project: { slug: 'shop' },
      role: 'viewer',
      scopes: ['read'],
    });
    expect(view.paths).toContainEqual({ method: 'GET', path: '/api/v2/projects/{slug}/releases' });
    expect(view.paths).not.toContainEqual({ method: 'POST', path: '/api/v2/projects/{slug}/releases' });
    const table = await cli.run(['whoami'], { env });
    expect(table.stdout).toMatch(/kind:\s+project API key/);
    expect(table.stdout).toMatch(/project:\s+shop/);

    // A release waiting for the prod gate: the key (no approver itself) sees what waits in its project.
    const pending = await api.create(org.members.member!.token, 'shop', {
      environment: 'prod',
      tenantId: tenants.acme,
      title: 'web 3.1.0',
      changes: [{ workload: 'web', tag: '3.1.0' }],
    });
    expect(pending.status).toBe(201);
    await api.status(owner, pending.body.id, 'PendingApproval', 30_000);
    const approvals = await cli.run(['approvals', '-o', 'json'], { env });
    expect([approvals.code, approvals.stderr]).toEqual([0, '']);
    expect(JSON.stringify(JSON.parse(approvals.stdout))).toContain(pending.body.id);
  }, 90_000);

  it('tells a pipeline apart: compare --exit-code exits 5 on differences, a bulk update that commits nothing exits 6', async () => {
    const owner = org.members.owner!.token;
    const key = await api.http.post<{ key: string }>('/api/v2/projects/shop/api-keys', {
      token: owner,
      body: { name: 'pipeline', scopes: ['read', 'write'] },
    });
    const env = { DELIVERY_TOKEN: key.body.key, DELIVERY_CONFIG_DIR: path.join(cli.configDir, 'ci-empty') };
    const bulk = (tag: string) =>
      cli.run(
        ['bulk-update', '-p', 'shop', '--workload', 'web', '--pairs', 'acme:dev', '--tag', tag, '-o', 'json', '--yes'],
        {
          env,
        },
      );
    const updated = await bulk('7.7.7');
    expect([updated.code, updated.stderr]).toEqual([0, '']);
    expect((JSON.parse(updated.stdout) as { commit: string }).commit).toMatch(/^[0-9a-f]{40}$/);

    const compare = (to: string, extra: string[] = []) =>
      cli.run(['compare', '-p', 'shop', '--from', 'dev', '--to', to, '--type', 'image', ...extra], { env });
    const listed = await compare('prod');
    expect([listed.code, listed.stdout]).toEqual([0, expect.stringContaining('7.7.7')]);
    expect((await compare('prod', ['--exit-code'])).code).toBe(5);
    expect((await compare('dev', ['--exit-code'])).code).toBe(0);

    // A pin as a rollback leaves it: the bulk update skips the pair and commits nothing.
    await pinAsRollback(platform, {
      organizationId: org.org.id,
      project: 'shop',
      tenantId: tenants.acme!,
      tenant: 'acme',
      environment: 'dev',
    });
    const skipped = await bulk('8.8.8');
    expect(skipped.code).toBe(6);
    expect(JSON.parse(skipped.stdout)).toMatchObject({
      commit: null,
      message: 'every pair is pinned: nothing committed',
    });
  });

  it('asks before destructive or production actions: off a terminal without --yes it refuses (exit 7), doing nothing', async () => {
    const owner = org.members.owner!.token;
    const prod = await api.http.patch('/api/v2/org/environments/prod', { token: owner, body: { production: true } });
    expect(prod.status).toBe(200);
    // The Blocked promotion an earlier test left would be refused as in flight before anything is asked.
    const blocked = await api.http.get<{ items: { id: string }[] }>('/api/v2/projects/shop/promotions?status=Blocked', {
      token: owner,
    });
    for (const p of blocked.body.items) {
      expect((await api.http.post(`/api/v2/promotions/${p.id}/cancel`, { token: owner, body: {} })).status).toBe(200);
    }
    const refusals: [string[], string][] = [
      [['rollback', '--tenant', 'acme', '--env', 'prod', '--reason', 'bad config'], 'roll back acme/prod (bad config)'],
      [['bulk-update', '--workload', 'web', '--pairs', 'acme:prod', '--tag', '9.9.9'], 'set web to 9.9.9 on acme:prod'],
      [['promote', '--from', 'dev', '--to', 'prod'], 'promote dev -> prod (a production environment) in shop'],
      [['break-glass', 'open', '--justification', 'INC-1', '--minutes', '5'], 'open a break-glass session for 5 min'],
      [['release', 'cancel', '00000000-0000-4000-8000-000000000000'], 'cancel release 00000000-'],
      [['promotion', 'cancel', '00000000-0000-4000-8000-000000000000'], 'cancel promotion 00000000-'],
    ];
    const before = await api.http.get<{ items: unknown[] }>('/api/v2/projects/shop/releases', { token: owner });
    for (const [args, action] of refusals) {
      const res = await cli.run([...args, '-p', 'shop'], { env: { DELIVERY_TOKEN: owner } });
      expect([args.join(' '), res.code, res.stdout]).toEqual([args.join(' '), 7, '']);
      expect(res.stderr).toContain(action);
      expect(res.stderr).toContain('needs a confirmation: pass --yes (standard input is not a terminal');
    }
    const after = await api.http.get<{ items: unknown[] }>('/api/v2/projects/shop/releases', { token: owner });
    expect(after.body.items.length).toBe(before.body.items.length);
    const sessions = await api.http.get<{ items: unknown[] }>('/api/v2/break-glass', { token: owner });
    expect(sessions.body.items).toEqual([]);

    // With --yes it goes ahead; a second identical promotion while the first is in flight is refused.
    const dev = await cli.run(
      ['bulk-update', '-p', 'shop', '--workload', 'web', '--pairs', 'acme:dev', '--tag', '4.4.4', '--yes'],
      { env: { DELIVERY_TOKEN: owner } },
    );
    // 6 in a full run: an earlier test pinned acme/dev, which then already differs from prod.
    expect([0, 6]).toContain(dev.code);
    const first = await cli.run(['promote', '-p', 'shop', '--from', 'dev', '--to', 'prod', '--yes', '-o', 'json'], {
      env: { DELIVERY_TOKEN: owner },
    });
    expect([0, 1]).toContain(first.code);
    const second = await cli.run(['promote', '-p', 'shop', '--from', 'dev', '--to', 'prod', '--yes'], {
      env: { DELIVERY_TOKEN: owner },
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/error: a promotion dev -> prod is already in flight \([0-9a-f-]{36}, \w+\)/);
  }, 90_000);

  it('-o json: every answer is one JSON document on stdout, every error one JSON object on stderr', async () => {
    const owner = org.members.owner!.token;
    const env = { DELIVERY_TOKEN: owner };
    const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;
    for (const args of [
      ['whoami'],
      ['context', 'list'],
      ['context', 'set', '--project', 'shop'],
      ['release', 'list', '-p', 'shop'],
      ['promotion', 'list', '-p', 'shop'],
      ['status', '-p', 'shop'],
      ['freeze', 'list'],
      ['break-glass', 'list'],
      ['key', 'list', '-p', 'shop'],
    ]) {
      const res = await cli.run([...args, '-o', 'json'], { env });
      expect([args.join(' '), res.code]).toEqual([args.join(' '), 0]);
      expect(() => parse(res.stdout)).not.toThrow();
    }
    const usage = await cli.run(['release', 'create', '--env', 'prod', '-o', 'json'], { env });
    expect([usage.code, usage.stdout]).toEqual([2, '']);
    expect(parse(usage.stderr)).toEqual({ error: expect.stringContaining('--tenant'), exitCode: 2 });
    const unknownOption = await cli.run(['release', 'list', '--nope', '-o', 'json'], { env });
    expect([unknownOption.code, parse(unknownOption.stderr)]).toEqual([
      2,
      { error: expect.stringContaining("unknown option '--nope'"), exitCode: 2 },
    ]);
    const missing = await cli.run(['release', 'get', '00000000-0000-4000-8000-000000000000', '-o', 'json'], { env });
    expect([missing.code, missing.stdout, parse(missing.stderr)]).toEqual([
      1,
      '',
      { error: expect.stringContaining('(HTTP 404)'), exitCode: 1 },
    ]);
    // Following with -o json: the steps go to stderr, never into the JSON; a timeout ends stderr with its object.
    const followed = await cli.run(
      ['release', 'create', '-p', 'shop', '--env', 'dev', '--tenant', 'acme', '--set', 'web=5.5.5', '--wait'].concat([
        '--timeout',
        '2s',
        '--interval',
        '200ms',
        '-o',
        'json',
      ]),
      { env },
    );
    expect([followed.code, followed.stdout]).toEqual([3, '']);
    expect(parse(followed.stderr.trim().split('\n').at(-1)!)).toEqual({
      error: expect.stringContaining('timed out after 2s'),
      exitCode: 3,
    });
  }, 90_000);

  it('shows the validation result of a release its validation blocks (422, nothing created), and exits 1', async () => {
    await makeProject(platform, org.members.owner!.token, 'broken', ['acme'], {
      probes: { liveness: { httpGet: { path: 5, port: 8080 } } },
    });
    const res = await cli.run([
      'release',
      'create',
      '-p',
      'broken',
      '--env',
      'dev',
      '--tenant',
      'acme',
      '--set',
      'web=1.0.1',
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^validation: \d+ error\(s\)/);
    expect(res.stderr).toContain('Deployment/web (tenants/acme/dev/web/');
    expect(res.stderr).toMatch(/error: release blocked by validation: \d+ error\(s\).* \(HTTP 422\)\n$/);
  }, 60_000);

  it('audit --break-glass-session lists what was done under that session, and only that', async () => {
    const owner = org.members.owner!.token;
    const opened = await api.http.post<{ id: string }>('/api/v2/break-glass', {
      token: owner,
      body: { justification: 'INC-7: checkout down', durationMinutes: 10, scope: { projects: ['shop'] } },
    });
    expect(opened.status).toBe(201);
    const session = opened.body.id;
    const release = await cli.run(
      [
        'release',
        'create',
        '--env',
        'dev',
        '--tenant',
        'acme',
        '--set',
        'web=7.7.7',
        '--title',
        'under INC-7',
        '-o',
        'json',
      ],
      { env: { DELIVERY_TOKEN: owner, DELIVERY_PROJECT: 'shop' } },
    );
    expect([release.code, release.stderr]).toEqual([0, '']);
    const releaseId = (JSON.parse(release.stdout) as { id: string }).id;
    const closed = await api.http.post(`/api/v2/break-glass/${session}/close`, { token: owner });
    expect(closed.status).toBe(200);
    // An action after the session closed is not under it.
    const after = await api.http.post('/api/v2/projects/shop/releases', {
      token: owner,
      body: {
        environment: 'dev',
        tenantId: 'acme',
        title: 'after INC-7',
        changes: [{ workload: 'web', tag: '7.7.8' }],
      },
    });
    expect(after.status).toBe(201);

    const listed = await cli.run(['audit', '--break-glass-session', session, '--limit', '100', '-o', 'json'], {
      env: { DELIVERY_TOKEN: owner },
    });
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    const entries = (
      JSON.parse(listed.stdout) as {
        items: {
          action: string;
          resourceType: string;
          resourceId: string;
          details: { breakGlass?: { sessionId: string } };
        }[];
      }
    ).items;
    const actions = entries.map((e) => `${e.action} ${e.resourceType}/${e.resourceId}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        `break_glass.open break_glass_session/${session}`,
        `break_glass.close break_glass_session/${session}`,
        `release.create release/${releaseId}`,
      ]),
    );
    // Nothing else: each entry is the session's own or carries its id.
    for (const e of entries) {
      const own = e.resourceType === 'break_glass_session' && e.resourceId === session;
      expect([e.action, own || e.details.breakGlass?.sessionId === session]).toEqual([e.action, true]);
    }
    expect(actions.some((a) => a.includes((after.body as { id: string }).id))).toBe(false);

    const table = await cli.run(['audit', '--break-glass-session', session], { env: { DELIVERY_TOKEN: owner } });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`release.create`);
    expect(table.stdout).toContain(`release/${releaseId}`);
    // The route's own validation answers a malformed id (400), as the CLI's usual error.
    const bad = await cli.run(['audit', '--break-glass-session', 'not-a-session'], { env: { DELIVERY_TOKEN: owner } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/breakGlassSessionId.*\(HTTP 400\)/);
  }, 60_000);

  it('answers usage errors with exit 2 and lists a project tenant by name when one is unknown', async () => {
    const usage = await cli.run(['release', 'create', '--env', 'prod']);
    expect(usage.code).toBe(2);
    const unknown = await cli.run(['release', 'create', '--env', 'prod', '--tenant', 'nope', '--set', 'web=1']);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([
      2,
      'error: project shop has no tenant "nope" (tenants: acme)',
    ]);
    // Leaving out --preview does not roll back silently: a rollback needs its reason.
    const rollback = await cli.run(['rollback', '--tenant', 'acme', '--env', 'prod']);
    expect([rollback.code, rollback.stderr.trim()]).toEqual([
      2,
      'error: --reason is required to roll back (or --preview to see what would be restored)',
    ]);
    const completion = await cli.run(['completion', 'bash']);
    expect(completion.stdout).toContain('complete -F _delivery delivery');
    expect(completion.stdout).toContain('"release") words="create list get history approve reject cancel deploy');
  }, 60_000);
});
