import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cliRunner } from '../cli/cli-harness';
import { makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';
import { promotionClient, type PromotionBody } from './promotion-harness';

/**
 * Versions at every decision (issue 50): a promotion shows what each target runs now and after and flags a downgrade;
 * compare reads current -> proposed like a promotion, the Application as a YAML diff; the previews name the gates
 * (the approval policy a bulk update meets, the release a new release queues behind, the approval policy a rollback
 * waits for); the pin a rollback leaves lasts until a later explicit release or promotion into the target, which
 * releases it with a `target.unpin` entry. Real Temporal, PostgreSQL and git over HTTP.
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let releases: ReturnType<typeof releaseClient>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  api = promotionClient(platform);
  releases = releaseClient(platform);
  org = await makeOrg(platform, ['owner', 'member']);
  owner = org.members.owner!.token;
}, 120_000);
afterAll(() => platform.close());

interface UnpinEntry {
  action: string;
  tenantId: string;
  gitCommitSha: string | null;
  details: { environment: string; reason: string; releasedBy: { kind: string; id?: string } };
}

async function unpinEntries(): Promise<UnpinEntry[]> {
  const res = await api.http.get<{ items: UnpinEntry[] }>('/api/v2/audit-logs?action=target.unpin&limit=100', {
    token: owner,
  });
  return res.body.items;
}

/** Rolls `environment` of the tenant back (to its previous Healthy release) and waits for the pin. */
async function rollBack(tenantId: string, environment: string) {
  const target = `/api/v2/tenants/${tenantId}/envs/${environment}`;
  const rollback = await api.http.post<{ id: string }>(`${target}/rollback`, {
    token: org.members.member!.token,
    body: { reason: 'checkout broken' },
  });
  expect(rollback.status).toBe(201);
  const syncing = await releases.status(owner, rollback.body.id, 'Syncing');
  await releases.reportSync(owner, rollback.body.id, syncing.commitSha!);
  await releases.status(owner, rollback.body.id, 'Healthy');
  expect((await api.http.get(`${target}/pin`, { token: owner })).status).toBe(200);
  return target;
}

describe('versions of a promotion', () => {
  it('shows current -> proposed per tenant and service and flags a downgrade of the target', async () => {
    const tenants = await makeProject(platform, owner, 'down', ['acme', 'globex']);
    await api.releaseTo(owner, 'down', 'prod', tenants.acme!, '1.5.0');
    await api.releaseTo(owner, 'down', 'prod', tenants.globex!, '1.3.0');
    await api.releaseToDev(owner, 'down', tenants.acme!, '1.4.0');
    await api.releaseToDev(owner, 'down', tenants.globex!, '1.4.0');

    const requested = await api.request(org.members.member!.token, 'down', {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
    });
    expect(requested.status).toBe(201);
    const expected = {
      downgrade: true,
      versions: [
        { tenant: 'acme', workload: 'web', from: '1.5.0', to: '1.4.0', direction: 'downgrade' },
        { tenant: 'globex', workload: 'web', from: '1.3.0', to: '1.4.0', direction: 'upgrade' },
      ],
    };
    expect(requested.body).toMatchObject(expected);
    expect(await api.get(owner, requested.body.id)).toMatchObject(expected);
    const listed = await api.http.get<{ items: PromotionBody[] }>('/api/v2/projects/down/promotions', {
      token: owner,
    });
    expect(listed.body.items.find((p) => p.id === requested.body.id)).toMatchObject(expected);

    // The request's audit entry (and the promotion.request event, built from the same details) say it in these words.
    const text = 'acme/web 1.5.0 -> 1.4.0 (downgrade); globex/web 1.3.0 -> 1.4.0';
    const entries = await api.http.get<{ items: { details: Record<string, unknown> }[] }>(
      `/api/v2/audit-logs?action=promotion.request&resourceId=${requested.body.id}`,
      { token: owner },
    );
    expect(entries.body.items[0]?.details).toMatchObject({ versions: text, downgrade: true });
    // `delivery promotion get` says it too, as text and as JSON.
    const cli = cliRunner(platform.url);
    try {
      const env = { DELIVERY_TOKEN: owner };
      const text = await cli.run(['promotion', 'get', requested.body.id], { env });
      expect([text.code, text.stderr]).toEqual([0, '']);
      expect(text.stdout).toContain('versions: acme/web 1.5.0 -> 1.4.0 (downgrade); globex/web 1.3.0 -> 1.4.0\n');
      expect(text.stdout).toContain('downgrade: yes: a target would run an older version\n');
      const json = await cli.run(['promotion', 'get', requested.body.id, '-o', 'json'], { env });
      expect(JSON.parse(json.stdout)).toMatchObject(expected);
    } finally {
      cli.close();
    }
  });
});

describe('versions of a release waiting for approval', () => {
  it('are on the release, in the inbox of `delivery approvals` and in the approval notification, current -> proposed', async () => {
    const tenants = await makeProject(platform, owner, 'relv', ['acme']);
    await api.releaseTo(owner, 'relv', 'prod', tenants.acme!, '1.5.0');
    await api.prodApprovalPolicy(owner, 'relv', 'prod needs the owner', 'owner');
    const created = await releases.create(org.members.member!.token, 'relv', {
      environment: 'prod',
      tenantId: tenants.acme!,
      title: 'back to 1.4.0',
      changes: [{ workload: 'web', tag: '1.4.0' }],
    });
    expect(created.status).toBe(201);
    const expected = {
      downgrade: true,
      versions: [{ tenant: 'acme', workload: 'web', from: '1.5.0', to: '1.4.0', direction: 'downgrade' }],
    };
    expect(created.body).toMatchObject(expected);
    await releases.status(owner, created.body.id, 'PendingApproval');
    const listed = await api.http.get<{ items: { id: string }[] }>(
      '/api/v2/projects/relv/releases?status=PendingApproval',
      { token: owner },
    );
    expect(listed.body.items.find((r) => r.id === created.body.id)).toMatchObject(expected);

    // The approver's notification of the request names both versions (in-app here; every channel renders the same
    // event's fields), and so does the audit entry it comes from.
    const text = 'acme/web 1.5.0 -> 1.4.0 (downgrade)';
    // The organization's dispatcher, as the periodic reconciler starts it for an organization without channels.
    await platform.services.notifications.reconcileDispatchers();
    const notified = await eventually(async () => {
      const inbox = await api.http.get<{ items: { event: string; title: string; payload: Record<string, unknown> }[] }>(
        '/api/v2/notifications?limit=100',
        { token: owner },
      );
      const found = inbox.body.items.find(
        (n) => n.event === 'approval.request' && n.payload.releaseId === created.body.id,
      );
      if (!found) throw new Error('no approval.request notification yet');
      return found;
    });
    expect(notified.payload).toMatchObject({ versions: text, downgrade: true, title: 'back to 1.4.0' });
    const entries = await api.http.get<{ items: { details: Record<string, unknown> }[] }>(
      `/api/v2/audit-logs?action=release.approval.request&resourceId=${created.body.id}`,
      { token: owner },
    );
    expect(entries.body.items[0]?.details).toMatchObject({ versions: text, downgrade: true });

    // `delivery approvals` shows the release as it shows a promotion: current -> proposed, the downgrade said first.
    const cli = cliRunner(platform.url);
    try {
      const inbox = await cli.run(['approvals'], { env: { DELIVERY_TOKEN: owner } });
      expect([inbox.code, inbox.stderr]).toEqual([0, '']);
      expect(inbox.stdout).toContain(`DOWNGRADE acme/prod: back to 1.4.0: ${text}`);
    } finally {
      cli.close();
    }
  });

  it('a promotion request notifies with both versions', async () => {
    const requested = await api.http.get<{ items: { id: string }[] }>('/api/v2/projects/down/promotions', {
      token: owner,
    });
    const id = requested.body.items[0]?.id;
    expect(id).toBeDefined();
    // The organization's dispatcher, as the periodic reconciler starts it for an organization without channels.
    await platform.services.notifications.reconcileDispatchers();
    const notified = await eventually(async () => {
      const inbox = await api.http.get<{ items: { event: string; payload: Record<string, unknown> }[] }>(
        '/api/v2/notifications?limit=100',
        { token: owner },
      );
      const found = inbox.body.items.find((n) => n.event === 'promotion.request' && n.payload.promotionId === id);
      if (!found) throw new Error('no promotion.request notification yet');
      return found;
    });
    expect(notified.payload).toMatchObject({
      versions: 'acme/web 1.5.0 -> 1.4.0 (downgrade); globex/web 1.3.0 -> 1.4.0',
      downgrade: true,
    });
  });
});

describe('the pin a rollback leaves', () => {
  it('is released, with a target.unpin entry, by a later explicit release into the target', async () => {
    const tenants = await makeProject(platform, owner, 'pinrel', ['acme']);
    await api.releaseToDev(owner, 'pinrel', tenants.acme!, '1.1.0');
    await api.releaseToDev(owner, 'pinrel', tenants.acme!, '1.2.0');
    const target = await rollBack(tenants.acme!, 'dev');

    const forward = await api.releaseToDev(owner, 'pinrel', tenants.acme!, '1.3.0');
    expect(forward.status).toBe('Healthy');
    expect((await api.http.get(`${target}/pin`, { token: owner })).status).toBe(404);
    const entry = (await unpinEntries()).find((e) => e.tenantId === tenants.acme);
    expect(entry).toMatchObject({
      gitCommitSha: forward.commitSha,
      details: { environment: 'dev', releasedBy: { kind: 'release', id: forward.id } },
    });
    expect(entry?.details.reason).toMatch(/^rolled back to release /);
  });

  it('is released by a later promotion into the target', async () => {
    const tenants = await makeProject(platform, owner, 'pinpro', ['acme']);
    await api.releaseTo(owner, 'pinpro', 'prod', tenants.acme!, '1.1.0');
    await api.releaseTo(owner, 'pinpro', 'prod', tenants.acme!, '1.2.0');
    const target = await rollBack(tenants.acme!, 'prod');
    await api.releaseToDev(owner, 'pinpro', tenants.acme!, '1.3.0');

    const requested = await api.request(owner, 'pinpro', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
    expect(requested.status).toBe(201);
    const syncing = await api.status(owner, requested.body.id, 'Syncing');
    expect((await api.http.get(`${target}/pin`, { token: owner })).status).toBe(404);
    expect((await unpinEntries()).find((e) => e.tenantId === tenants.acme)).toMatchObject({
      gitCommitSha: syncing.commitSha,
      details: { environment: 'prod', releasedBy: { kind: 'promotion', id: requested.body.id } },
    });
  });
});

describe('compare, current -> proposed', () => {
  it('reads the target (to) as current and the source (from) as proposed, the Application as a YAML diff', async () => {
    const tenants = await makeProject(platform, owner, 'cmp', ['acme']);
    const patched = await api.http.patch('/api/v2/projects/cmp/environments/prod', {
      token: owner,
      body: { syncPolicy: { prune: false, selfHeal: false } },
    });
    expect(patched.status).toBe(200);
    expect((await api.http.post('/api/v2/projects/cmp/delivery/generate', { token: owner, body: {} })).status).toBe(
      200,
    );
    await api.releaseTo(owner, 'cmp', 'prod', tenants.acme!, '2.0.0');

    type Difference = { type: string; from?: unknown; to?: unknown; diff?: string };
    const res = await api.http.get<{
      current: string;
      proposed: string;
      items: { tenant: string; differences: Difference[] }[];
    }>('/api/v2/projects/cmp/compare?from=dev&to=prod', { token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ current: 'prod', proposed: 'dev' });
    const differences = res.body.items[0]!.differences;
    expect(differences.find((d) => d.type === 'image')).toEqual({
      type: 'image',
      to: 'registry.example.com/shop/web:2.0.0',
      from: 'registry.example.com/shop/web:1.0.0',
    });
    const changed = (d: Difference | undefined) =>
      (d?.diff ?? '')
        .split('\n')
        .filter((l) => /^[-+][^-+]/.test(l))
        .map((l) => l.replace(/\s+/g, ' ').trim());
    expect(changed(differences.find((d) => d.type === 'manifests'))).toEqual([
      '- image: registry.example.com/shop/web:2.0.0',
      '+ image: registry.example.com/shop/web:1.0.0',
    ]);
    const application = differences.find((d) => d.type === 'application');
    expect(changed(application)).toEqual(['- prune: false', '- selfHeal: false', '+ prune: true', '+ selfHeal: true']);
    expect(application?.diff).not.toContain('{"');
  });
});

describe('previews name the gates', () => {
  it('a bulk-update preview names the approval policy that refuses applying', async () => {
    await makeProject(platform, owner, 'gated', ['acme']);
    expect((await releases.oneApprovalIn(owner, 'gated', 'prod')).status).toBe(201);
    const body = { workload: 'web', tag: '3.0.0', pairs: [{ tenant: 'acme', environment: 'prod' }] };
    const preview = await api.http.post<{ blocked: boolean; approvalPolicies: string[] }>(
      '/api/v2/projects/gated/bulk-update/preview',
      { token: owner, body },
    );
    expect(preview.status).toBe(200);
    const applied = await api.http.post<{ error: string }>('/api/v2/projects/gated/bulk-update', {
      token: owner,
      body,
    });
    expect(applied.status).toBe(403);
    expect(preview.body).toMatchObject({ blocked: true, approvalPolicies: [applied.body.error] });
    expect(applied.body.error).toContain('the approval policy "prod needs one" covers environment prod (tenant acme)');
  });

  it('a release preview names the release holding the target and says it would queue', async () => {
    const tenants = await makeProject(platform, owner, 'busy', ['acme']);
    const input = (tag: string) => ({
      environment: 'dev',
      tenantId: tenants.acme,
      title: `web ${tag}`,
      changes: [{ workload: 'web', tag }],
    });
    const first = await releases.create(owner, 'busy', input('1.1.0'));
    expect(first.status).toBe(201);
    await releases.status(owner, first.body.id, 'Syncing');

    const preview = await api.http.post<{
      outcome: { status: string; reason: string };
      queue: { behind: { id: string; title: string } };
    }>('/api/v2/projects/busy/releases/preview', { token: owner, body: input('1.2.0') });
    expect(preview.status).toBe(200);
    expect(preview.body.outcome).toEqual({
      status: 'Queued',
      reason: 'waiting for release "web 1.1.0" (Syncing) to finish: one deployment at a time per target',
    });
    expect(preview.body.queue.behind).toEqual({ id: first.body.id, title: 'web 1.1.0', status: 'Syncing' });

    // The release itself, once queued, names what it waits for by title too.
    const second = await releases.create(owner, 'busy', input('1.2.0'));
    const queued = await releases.status(owner, second.body.id, 'Queued');
    expect(queued.statusReason).toBe(`waiting for release "web 1.1.0" (${first.body.id}) to finish`);
  });

  it('a rollback preview shows the versions now -> after and names the approval policy it would wait for', async () => {
    const tenants = await makeProject(platform, owner, 'rbgate', ['acme']);
    await api.releaseToDev(owner, 'rbgate', tenants.acme!, '1.1.0');
    await api.releaseToDev(owner, 'rbgate', tenants.acme!, '1.2.0');
    expect((await releases.oneApprovalIn(owner, 'rbgate', 'dev')).status).toBe(201);
    const preview = await api.http.post<Record<string, unknown>>(
      `/api/v2/tenants/${tenants.acme}/envs/dev/rollback/preview`,
      { token: owner, body: {} },
    );
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      outcome: {
        status: 'PendingApproval',
        reason: 'the rollback waits for the approvals of "dev needs one" (1) before it commits',
      },
      approvalPolicies: [{ name: 'dev needs one', requiredApprovals: 1 }],
      versions: [{ tenant: 'acme', workload: 'web', from: '1.2.0', to: '1.1.0', direction: 'downgrade' }],
      downgrade: true,
      queue: null,
    });
  });
});
