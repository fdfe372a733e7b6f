// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import type { ControllerSimulator } from '../../helpers/controller-simulator';
import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { cliRunner } from '../cli/cli-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { releaseClient } from '../releases/release-harness';
import { shapeBHeaders } from '../webhooks/webhook-signing';
import { watchedProject } from './truth-harness';

/**
 * The deployments history (issue 47): releases, a promotion, an image webhook whose sync turns Degraded and a
 * rollback, driven through the controller simulator, with the instant noted between steps; then the matrix at each
 * instant and the changes between two of them, against values written here.
 */
let platform: TestPlatform;
let api: ReturnType<typeof promotionClient>;
let releases: ReturnType<typeof releaseClient>;
let owner: string;
let ownerEmail: string;
let outsider: string;
let sim: ControllerSimulator;
let degrade = false;

interface Cell {
  environment: string;
  desired: {
    version: string | null;
    revision: string;
    since: string;
    by: { kind: string | null; actor: string | null };
  } | null;
  live: { version: string | null; revision: string; healthStatus: string | null } | null;
  current: boolean;
  healthySince: string | null;
}

/** The instants between the steps, and what the steps produced. */
const t: Record<string, string> = {};
const made: Record<string, string> = {};

const now = async () => {
  // Events are stamped by the platform in milliseconds: a step never shares the millisecond of the instant noted.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const at = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  return at;
};

async function release(tenantId: string, environment: string, tag: string) {
  const created = await releases.create(owner, 'hist', {
    environment,
    tenantId,
    title: `web ${tag}`,
    changes: [{ workload: 'web', tag }],
  });
  expect(created.status).toBe(201);
  await releases.status(owner, created.body.id, 'Syncing');
  await sim.refresh();
  return releases.status(owner, created.body.id, 'Healthy');
}

async function matrixAt(at: string): Promise<Cell[]> {
  const res = await api.http.get<{ at: string; items: Cell[] }>(
    `/api/v2/projects/hist/deployments?tenant=acme&service=web&at=${encodeURIComponent(at)}`,
    { token: owner },
  );
  expect(res.status).toBe(200);
  expect(res.body.at).toBe(at);
  return res.body.items;
}

/** A cell as [environment, desired version, by, live version, health, current, verified]. */
const brief = (c: Cell) => [
  c.environment,
  c.desired?.version ?? null,
  c.desired?.by.kind ?? null,
  c.live?.version ?? null,
  c.live?.healthStatus ?? null,
  c.current,
  c.healthySince !== null,
];

beforeAll(async () => {
  platform = await startTestPlatform();
  api = promotionClient(platform);
  releases = releaseClient(platform);
  const org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  ownerEmail = org.members.owner!.user.email;
  outsider = (await makeOrg(platform, ['owner'])).members.owner!.token;

  // A whole second back: the controller stamps its reports in whole seconds (as Argo CD does), so the first
  // verification of the generate commit, in the same second, can be stamped before an instant noted here.
  t.before = new Date(Math.floor(Date.parse(await now()) / 1000) * 1000 - 1).toISOString();
  const watched = await watchedProject(
    platform,
    { slug: org.org.slug, ownerToken: owner },
    'hist',
    ['acme'],
    api.controller,
    (application) => (degrade && application === 'hist.acme.prod.web' ? 'Degraded' : 'Healthy'),
  );
  sim = watched.sim;
  const acme = watched.tenants.acme!;
  t.generated = await now();

  made.r1 = (await release(acme, 'prod', '1.1.0')).id;
  t.released = await now();
  made.r2 = (await release(acme, 'dev', '1.2.0')).id;
  t.devReleased = await now();

  const promotion = await api.request(owner, 'hist', { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
  expect(promotion.status).toBe(201);
  made.promotion = promotion.body.id;
  await api.status(owner, promotion.body.id, 'Syncing');
  await sim.refresh();
  await api.status(owner, promotion.body.id, 'Healthy');
  t.promoted = await now();

  const settings = await api.http.put<{ secret: string }>('/api/v2/projects/hist/webhook-settings', {
    token: owner,
    body: { autoUpdateEnvironments: ['prod'], tagFilter: '^[0-9]+\\.[0-9]+\\.[0-9]+$' },
  });
  expect(settings.status).toBe(201);
  const body = JSON.stringify({
    image: 'registry.example.com/shop/web',
    tag: '1.3.0',
    digest: `sha256:${'cd'.repeat(32)}`,
    project: 'hist',
    workload: 'web',
    environments: ['prod'],
    tenants: ['acme'],
    timestamp: new Date().toISOString(),
  });
  const hook = await api.http.post('/api/v1/webhooks/image-update', {
    rawBody: body,
    headers: shapeBHeaders(settings.body.secret, body),
  });
  expect(hook.status).toBe(200);
  await eventually(
    async () => (await matrixAt(new Date().toISOString())).some((c) => c.desired?.version === '1.3.0'),
    20_000,
    'the webhook commit',
  );
  t.hooked = await now();
  degrade = true;
  await sim.refresh();
  degrade = false;
  t.degraded = await now();

  const rollback = await api.http.post<{ id: string }>(`/api/v2/tenants/${acme}/envs/prod/rollback`, {
    token: owner,
    body: { reason: 'bad image' },
  });
  expect(rollback.status).toBe(201);
  made.rollback = rollback.body.id;
  await releases.status(owner, rollback.body.id, 'Syncing');
  await sim.refresh();
  made.rollbackSha = (await releases.status(owner, rollback.body.id, 'Healthy')).commitSha!;
  t.rolledBack = await now();
}, 240_000);
afterAll(async () => {
  await sim.close();
  await platform.close();
});

describe('the deployments matrix at an instant', () => {
  it('answers each environment as it was at seven instants', async () => {
    expect(await matrixAt(t.before!)).toEqual([]);
    expect((await matrixAt(t.generated!)).map(brief)).toEqual([
      ['dev', '1.0.0', 'generate', '1.0.0', 'Healthy', true, true],
      ['prod', '1.0.0', 'generate', '1.0.0', 'Healthy', true, true],
    ]);
    expect((await matrixAt(t.released!)).map(brief)).toEqual([
      ['dev', '1.0.0', 'generate', '1.0.0', 'Healthy', true, true],
      ['prod', '1.1.0', 'release', '1.1.0', 'Healthy', true, true],
    ]);
    expect((await matrixAt(t.devReleased!)).map(brief)).toEqual([
      ['dev', '1.2.0', 'release', '1.2.0', 'Healthy', true, true],
      ['prod', '1.1.0', 'release', '1.1.0', 'Healthy', true, true],
    ]);
    expect((await matrixAt(t.promoted!)).map(brief)).toEqual([
      ['dev', '1.2.0', 'release', '1.2.0', 'Healthy', true, true],
      ['prod', '1.2.0', 'promotion', '1.2.0', 'Healthy', true, true],
    ]);
    // Committed by the webhook, not synced yet: the controller still runs 1.2.0.
    expect((await matrixAt(t.hooked!)).map(brief)).toEqual([
      ['dev', '1.2.0', 'release', '1.2.0', 'Healthy', true, true],
      ['prod', '1.3.0', 'webhook', '1.2.0', 'Healthy', false, false],
    ]);
    expect((await matrixAt(t.degraded!)).map(brief)).toEqual([
      ['dev', '1.2.0', 'release', '1.2.0', 'Healthy', true, true],
      ['prod', '1.3.0', 'webhook', '1.3.0', 'Degraded', true, false],
    ]);
    const last = await matrixAt(t.rolledBack!);
    expect(last.map(brief)).toEqual([
      ['dev', '1.2.0', 'release', '1.2.0', 'Healthy', true, true],
      ['prod', '1.2.0', 'release', '1.2.0', 'Healthy', true, true],
    ]);
    expect(last[1]!.desired!.by.actor).toBe(ownerEmail);
  });

  it('pages and filters like the matrix of now', async () => {
    const first = await api.http.get<{ items: Cell[]; nextCursor: string | null }>(
      `/api/v2/projects/hist/deployments?tenant=acme&limit=1&at=${t.released}`,
      { token: owner },
    );
    expect(first.body.items.map(brief)).toEqual([['dev', '1.0.0', 'generate', '1.0.0', 'Healthy', true, true]]);
    const second = await api.http.get<{ items: Cell[]; nextCursor: string | null }>(
      `/api/v2/projects/hist/deployments?tenant=acme&limit=1&at=${t.released}&cursor=${first.body.nextCursor}`,
      { token: owner },
    );
    expect(second.body.items.map(brief)).toEqual([['prod', '1.1.0', 'release', '1.1.0', 'Healthy', true, true]]);
    expect(second.body.nextCursor).toBeNull();
    const prod = await api.http.get<{ items: Cell[] }>(
      `/api/v2/projects/hist/deployments?environment=prod&at=${t.released}`,
      { token: owner },
    );
    expect(prod.body.items.map(brief)).toEqual([['prod', '1.1.0', 'release', '1.1.0', 'Healthy', true, true]]);
  });

  it('refuses an instant that is not one, or is in the future; another organization gets 404', async () => {
    const get = (query: string, token = owner) =>
      api.http.get<{ error: string }>(`/api/v2/projects/hist/deployments?${query}`, { token });
    const bad = await get('at=yesterday');
    expect([bad.status, bad.body.error]).toEqual([
      400,
      'at must be an ISO 8601 instant with a time zone, for example 2026-11-29T12:00:00Z',
    ]);
    expect((await get('at=2026-11-29T12:00:00')).status).toBe(400);
    const future = await get(`at=${new Date(Date.now() + 3_600_000).toISOString()}`);
    expect(future.status).toBe(400);
    expect(future.body.error).toMatch(/^at is in the future/);
    expect((await get(`at=${t.released}`, outsider)).status).toBe(404);
  });
});

interface Changed {
  environment: string;
  from: Record<string, string | null>;
  to: Record<string, string | null>;
  changes: {
    revision: string;
    from: string | null;
    to: string | null;
    cause: string | null;
    by: { kind: string | null; id: string | null; actor: string | null; title: string | null };
    auditIds: string[];
  }[];
  health: { at: string; version: string | null; from: string | null; to: string | null }[];
  truncated: boolean;
}

describe('the changes between two instants', () => {
  const changes = (query: string, token = owner) =>
    api.http.get<{ items: Changed[]; nextCursor: string | null; error: string }>(
      `/api/v2/projects/hist/deployments/changes?${query}`,
      { token },
    );

  it('lists the promotion, the webhook and the rollback with their versions, actors and health transitions', async () => {
    const res = await changes(`tenant=acme&service=web&from=${t.devReleased}&to=${t.rolledBack}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => i.environment)).toEqual(['prod']);
    const prod = res.body.items[0]!;
    const healthy = { syncStatus: 'Synced', healthStatus: 'Healthy' };
    expect(prod.from).toEqual({ version: '1.1.0', liveVersion: '1.1.0', ...healthy });
    expect(prod.to).toEqual({ version: '1.2.0', liveVersion: '1.2.0', ...healthy });
    expect(prod.changes.map((c) => [c.from, c.to, c.cause, c.by.kind, c.by.id, c.by.actor])).toEqual([
      ['1.1.0', '1.2.0', 'promotion', 'promotion', made.promotion, ownerEmail],
      ['1.2.0', '1.3.0', 'webhook', 'webhook', expect.any(String), expect.any(String)],
      ['1.3.0', '1.2.0', 'rollback', 'release', made.rollback, ownerEmail],
    ]);
    expect(prod.changes[2]!.by.title).toMatch(/: bad image$/);
    expect(prod.health.map((h) => [h.version, h.from, h.to])).toEqual([
      ['1.2.0', 'Healthy', 'Progressing'],
      ['1.2.0', 'Progressing', 'Healthy'],
      ['1.3.0', 'Healthy', 'Progressing'],
      ['1.3.0', 'Progressing', 'Degraded'],
      ['1.2.0', 'Degraded', 'Progressing'],
      ['1.2.0', 'Progressing', 'Healthy'],
    ]);
    expect(prod.truncated).toBe(false);

    // The rollback's commit names its audit entries: they are the rollback's entries in the audit log.
    const rollback = await releases.get(owner, made.rollback!);
    expect(prod.changes[2]!.revision).toBe(rollback.commitSha);
    const audit = await api.http.get<{ items: { id: string; action: string }[] }>(
      `/api/v2/audit-logs?resourceType=release&resourceId=${made.rollback}&limit=100`,
      { token: owner },
    );
    const deploy = audit.body.items.filter((e) => e.action === 'release.deploy').map((e) => e.id);
    expect(deploy).toHaveLength(1);
    expect(prod.changes[2]!.auditIds).toEqual(deploy);
  });

  it('pages by Application and leaves out those that did not change', async () => {
    const first = await changes(`tenant=acme&limit=1&from=${t.generated}&to=${t.rolledBack}`);
    expect(first.body.items.map((i) => [i.environment, i.changes.map((c) => c.to)])).toEqual([['dev', ['1.2.0']]]);
    const second = await changes(
      `tenant=acme&limit=1&from=${t.generated}&to=${t.rolledBack}&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.items.map((i) => [i.environment, i.changes.map((c) => c.to)])).toEqual([
      ['prod', ['1.1.0', '1.2.0', '1.3.0', '1.2.0']],
    ]);
    expect(second.body.nextCursor).toBeNull();
    const quiet = await changes(`tenant=acme&from=${t.rolledBack}&to=${await now()}`);
    expect(quiet.body.items).toEqual([]);
  });

  it('refuses a window that runs backwards, is longer than 31 days or has no start; 404 for another organization', async () => {
    const backwards = await changes(`from=${t.rolledBack}&to=${t.generated}`);
    expect([backwards.status, backwards.body.error]).toEqual([400, 'from must not be after to']);
    const long = await changes(`from=2026-09-01T00:00:00Z&to=${t.generated}`);
    expect([long.status, long.body.error]).toEqual([400, 'the window from .. to must not be longer than 31 days']);
    expect((await changes('to=2026-09-01T00:00:00Z')).status).toBe(400);
    expect((await changes(`from=${t.generated}`, outsider)).status).toBe(404);
  });
});

interface Figures {
  deployments: number;
  failedDeployments: number;
  changeFailureRate: number | null;
  leadTime: { count: number; medianSeconds: number | null; p90Seconds: number | null };
  timeToRestore: { incidents: number; restored: number; medianSeconds: number | null };
}
interface Metrics {
  total: Figures;
  groups: (Figures & { key: string })[];
  weeks: { start: string; total: Figures }[];
  error: string;
}

describe('delivery metrics', () => {
  const metrics = (query: string, token = owner) =>
    api.http.get<Metrics>(`/api/v2/projects/hist/deployments/metrics?${query}`, { token });
  const ms = (iso: string) => new Date(iso).getTime();
  /** PostgreSQL's percentile_cont: linear between the two nearest of the sorted values. */
  const percentile = (values: number[], p: number) => {
    const v = [...values].sort((a, b) => a - b);
    const rank = p * (v.length - 1);
    const lo = Math.floor(rank);
    return v[lo]! + (rank - lo) * ((v[lo + 1] ?? v[lo]!) - v[lo]!);
  };
  const cell = async (at: string, environment: string) =>
    (await matrixAt(at)).find((c) => c.environment === environment)!;

  it('counts deployments and failures, lead times and the restore, per environment, as computed here', async () => {
    const res = await metrics(`tenant=acme&service=web&from=${t.before}&to=${t.rolledBack}`);
    expect(res.status).toBe(200);
    // Deployments: dev 1.0.0 (generate), 1.2.0 (release); prod 1.0.0, 1.1.0 (release), 1.2.0 (promotion),
    // 1.3.0 (webhook), 1.2.0 (rollback). The webhook's failed: Degraded within the hour, then rolled back.
    const [dev, prod] = res.body.groups;
    expect([dev!.key, dev!.deployments, dev!.failedDeployments, dev!.changeFailureRate]).toEqual(['dev', 2, 0, 0]);
    expect([prod!.key, prod!.deployments, prod!.failedDeployments, prod!.changeFailureRate]).toEqual([
      'prod',
      5,
      1,
      0.2,
    ]);
    expect([res.body.total.deployments, res.body.total.failedDeployments]).toEqual([7, 1]);
    expect(res.body.total.changeFailureRate).toBe(0.1429);

    // (Compared to 50 ms: the API rounds to the millisecond and PostgreSQL keeps microseconds the API's instants drop.)
    // Lead time: from a version's first record in the project (a release's request; the generate commit) to its
    // first verification in the environment (healthySince in the matrix then). 1.3.0 never turned Healthy; 1.2.0's
    // second verification in prod (after the rollback) is not a new change.
    const generated = [await cell(t.generated!, 'dev'), await cell(t.generated!, 'prod')];
    const first100 = Math.min(...generated.map((c) => ms(c.desired!.since)));
    const requested = async (id: string) => ms((await releases.get(owner, id)).createdAt);
    const [r1, r2] = [await requested(made.r1!), await requested(made.r2!)];
    const verified = async (at: string, environment: string) => ms((await cell(at, environment)).healthySince!);
    // A lead time is never negative (docs/deployments.md): a report stamped by the controller a few milliseconds
    // before the commit's own record counts as 0, as the route computes it.
    const lead = (verifiedAt: number, firstAt: number) => Math.max(0, verifiedAt - firstAt) / 1000;
    const devLeads = [lead(ms(generated[0]!.healthySince!), first100), lead(await verified(t.devReleased!, 'dev'), r2)];
    const prodLeads = [
      lead(ms(generated[1]!.healthySince!), first100),
      lead(await verified(t.released!, 'prod'), r1),
      lead(await verified(t.promoted!, 'prod'), r2),
    ];
    expect(dev!.leadTime.count).toBe(2);
    expect(dev!.leadTime.medianSeconds).toBeCloseTo(percentile(devLeads, 0.5), 1);
    expect(prod!.leadTime.count).toBe(3);
    expect(prod!.leadTime.medianSeconds).toBeCloseTo(percentile(prodLeads, 0.5), 1);
    expect(prod!.leadTime.p90Seconds).toBeCloseTo(percentile(prodLeads, 0.9), 1);
    expect(res.body.total.leadTime.medianSeconds).toBeCloseTo(percentile([...devLeads, ...prodLeads], 0.5), 1);

    // Time to restore: one incident in prod, from the Degraded report (the rollback belongs to it) to the rolled
    // back version's verification.
    const changes = await api.http.get<{ items: Changed[] }>(
      `/api/v2/projects/hist/deployments/changes?tenant=acme&service=web&environment=prod&from=${t.hooked}&to=${t.rolledBack}`,
      { token: owner },
    );
    const degraded = changes.body.items[0]!.health.find((h) => h.to === 'Degraded')!;
    const restore = Math.max(0, (await verified(t.rolledBack!, 'prod')) - ms(degraded.at)) / 1000;
    expect(dev!.timeToRestore).toEqual({ incidents: 0, restored: 0, medianSeconds: null });
    expect(prod!.timeToRestore.incidents).toBe(1);
    expect(prod!.timeToRestore.restored).toBe(1);
    expect(prod!.timeToRestore.medianSeconds).toBeCloseTo(restore, 1);

    // The weeks add up to the window.
    const weeks = res.body.weeks.map((w) => w.total.deployments);
    expect(weeks.reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('counts a version verified again in the same whole second once (the controller stamps whole seconds)', async () => {
    // prod's history copied to a service of its own, the rollback's verification stamped in the second of the
    // promotion's (a quick rollback does that: the controller's stamps have no fraction).
    const db = platform.services.db;
    const rows = (await db('deployed_target_events')
      .where({ service: 'web', environment: 'prod' })
      .whereIn('project_id', db('deployed_target_events').where({ revision: made.rollbackSha! }).select('project_id'))
      .orderBy('id')) as { id: string; kind: string; version: string; at: Date }[];
    const verified = rows.filter((r) => r.kind === 'verified');
    expect(verified.map((r) => r.version)).toEqual(['1.0.0', '1.1.0', '1.2.0', '1.2.0']);
    const again = verified[3]!;
    await db('deployed_target_events').insert(
      rows.map(({ id: _id, ...row }, i) => ({
        ...row,
        service: 'tie',
        at: rows[i] === again ? verified[2]!.at : row.at,
      })),
    );
    try {
      const res = await metrics(`tenant=acme&service=tie&from=${t.before}&to=${t.rolledBack}`);
      expect(res.body.groups.map((g) => [g.key, g.leadTime.count])).toEqual([['prod', 3]]);
    } finally {
      await db('deployed_target_events').where({ service: 'tie' }).delete();
    }
  });

  it('groups by tenant or service and narrows the window', async () => {
    const tenants = await metrics(`groupBy=tenant&service=web&from=${t.before}&to=${t.rolledBack}`);
    expect(tenants.body.groups.map((g) => [g.key, g.deployments])).toEqual([['acme', 7]]);
    // After the promotion: the webhook's deployment and the rollback, one failed.
    const late = await metrics(`groupBy=service&tenant=acme&environment=prod&from=${t.promoted}&to=${t.rolledBack}`);
    const web = late.body.groups.find((g) => g.key === 'web')!;
    expect([web.deployments, web.failedDeployments, web.leadTime.count, web.timeToRestore.incidents]).toEqual([
      2, 1, 0, 1,
    ]);
  });

  it('refuses a bad window, failure window or grouping; 404 for another organization', async () => {
    const bad = async (query: string) => {
      const res = await metrics(query);
      return [res.status, res.body.error];
    };
    expect(await bad(`to=${t.rolledBack}`)).toEqual([
      400,
      'from is required: the start of the window, an ISO 8601 instant',
    ]);
    expect(await bad(`from=${t.rolledBack}&to=${t.before}`)).toEqual([400, 'from must be before to']);
    expect(await bad('from=2025-01-01T00:00:00Z')).toEqual([
      400,
      'the window from .. to must not be longer than 366 days',
    ]);
    expect(await bad(`from=${t.before}&failureWindow=30`)).toEqual([
      400,
      'failureWindow must be whole seconds from 60 to 604800',
    ]);
    expect((await metrics(`from=${t.before}&groupBy=team`)).status).toBe(400);
    expect((await metrics(`from=${t.before}`, outsider)).status).toBe(404);
  });
});

describe('the CLI', () => {
  let cli: ReturnType<typeof cliRunner>;
  beforeAll(() => (cli = cliRunner(platform.url)));
  afterAll(() => cli.close());
  const run = (args: string[]) => cli.run(args, { env: { DELIVERY_TOKEN: owner, DELIVERY_PROJECT: 'hist' } });

  it('delivery status --at prints the matrix as it was, as a table and as JSON', async () => {
    const json = await run(['status', '--tenant', 'acme', '--at', t.promoted!, '-o', 'json']);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout) as { at: string; items: Cell[] };
    expect(answer.at).toBe(t.promoted);
    expect(answer.items.map(brief)).toEqual([
      ['dev', '1.2.0', 'release', '1.2.0', 'Healthy', true, true],
      ['prod', '1.2.0', 'promotion', '1.2.0', 'Healthy', true, true],
    ]);
    const table = await run(['status', '--tenant', 'acme', '--env', 'prod', '--at', t.hooked!]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`as it was at ${t.hooked}`);
    expect(lines[2]!.split(/\s{2,}/).slice(0, 8)).toEqual([
      'acme',
      'prod',
      'web',
      '1.3.0',
      '1.2.0',
      'Synced',
      'Healthy',
      'no',
    ]);
    const bad = await run(['status', '--at', 'tomorrow']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('at must be an ISO 8601 instant with a time zone');
  });

  it('delivery metrics prints a row per environment and one for all, and the answer as JSON', async () => {
    const window = ['--tenant', 'acme', '--service', 'web', '--from', t.before!, '--to', t.rolledBack!];
    const table = await run(['metrics', ...window]);
    expect(table.code).toBe(0);
    const [title, header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(title).toBe(`${t.before} .. ${t.rolledBack}, failure window 1h 0m`);
    expect(header!.split(/\s{2,}/)).toEqual([
      'GROUP',
      'DEPLOYS',
      'PER DAY',
      'FAILED',
      'FAILURE RATE',
      'LEAD TIME',
      'LEAD P90',
      'INCIDENTS',
      'RESTORE',
    ]);
    expect(rows.map((r) => r.split(/\s{2,}/).filter((_, i) => [0, 1, 3, 4, 7].includes(i)))).toEqual([
      ['dev', '2', '0', '0%', '0/0'],
      ['prod', '5', '1', '20%', '1/1'],
      ['all', '7', '1', '14.3%', '1/1'],
    ]);
    const json = await run(['metrics', ...window, '--group-by', 'tenant', '-o', 'json']);
    const answer = JSON.parse(json.stdout) as Metrics;
    expect(answer.groups.map((g) => [g.key, g.deployments])).toEqual([['acme', 7]]);
    const bad = await run(['metrics', '--from', 'last week']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('from must be an ISO 8601 instant with a time zone');
  });

  it('delivery changes lists version changes and health transitions, oldest first', async () => {
    const res = await run([
      'changes',
      '--tenant',
      'acme',
      '--service',
      'web',
      '--from',
      t.devReleased!,
      '--to',
      t.rolledBack!,
    ]);
    expect(res.code).toBe(0);
    const [header, ...rows] = res.stdout.trimEnd().split('\n');
    expect(header!.split(/\s+/)).toEqual(['AT', 'TARGET', 'WHAT', 'FROM', 'TO', 'CAUSE', 'ACTOR', 'COMMIT']);
    expect(rows.map((r) => r.split(/\s{2,}/).slice(1, 7))).toEqual([
      ['acme/prod/web', 'version', '1.1.0', '1.2.0', 'promotion', ownerEmail],
      ['acme/prod/web', 'health', 'Healthy', 'Progressing (1.2.0)', '-', '-'],
      ['acme/prod/web', 'health', 'Progressing', 'Healthy (1.2.0)', '-', '-'],
      ['acme/prod/web', 'version', '1.2.0', '1.3.0', 'webhook', expect.any(String)],
      ['acme/prod/web', 'health', 'Healthy', 'Progressing (1.3.0)', '-', '-'],
      ['acme/prod/web', 'health', 'Progressing', 'Degraded (1.3.0)', '-', '-'],
      ['acme/prod/web', 'version', '1.3.0', '1.2.0', 'rollback', ownerEmail],
      ['acme/prod/web', 'health', 'Degraded', 'Progressing (1.2.0)', '-', '-'],
      ['acme/prod/web', 'health', 'Progressing', 'Healthy (1.2.0)', '-', '-'],
    ]);
    const json = await run(['changes', '--tenant', 'acme', '--from', t.generated!, '--to', t.released!, '-o', 'json']);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout) as { items: Changed[] };
    expect(answer.items.map((i) => [i.environment, i.changes.map((c) => [c.from, c.to, c.cause])])).toEqual([
      ['prod', [['1.0.0', '1.1.0', 'release']]],
    ]);
    expect(answer.items[0]!.changes[0]!.by.id).toBe(made.r1);
  });
});
