import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { WorkflowHandle } from '@temporalio/client';
import { DOMAIN_EVENT, recordDomainEvent } from '../../../src/events/domain-event-repository';
import { locateTemporalCli } from '../../../src/embedded/temporal-cli';
import { digestWorkflowId } from '../../../src/notifications/notification-workflow-contract';
import { repoRoot } from '../../../src/paths';
import { eventually } from '../../helpers/net';
import { harnessState } from '../../helpers/harness-state';
import {
  createCluster,
  startAgent,
  startClusterPlatform,
  stopClusterPlatform,
  type ClusterPlatform,
} from '../clusters/cluster-harness';
import { makeProject } from '../gitops/gitops-harness';
import { promotionClient } from '../promotions/promotion-harness';
import { releaseClient } from '../releases/release-harness';

/**
 * What ops see in the Temporal UI, read as the UI reads it from the real dev server: each kind of long-lived
 * workflow (release, promotion, invitation, digest, cluster heartbeat) has a static summary naming organization,
 * project, tenant, environment and what it does, and current details saying what it waits for; the workflow list
 * filters by organization and project slug; `temporal workflow describe` shows the summary.
 */
let p: ClusterPlatform;
let slug: string;
let owner: string;
let tenants: Record<string, string>;
const UI = 'http://temporal-ui.example.test:8233';
const uiLink = (workflowId: string) => `${UI}/namespaces/default/workflows/${workflowId}`;
/** Every workflow the tests started, to find them all by the organization's slug at the end. */
const started: string[] = [];

beforeAll(async () => {
  p = await startClusterPlatform({ NOTIFY_POLL_INTERVAL: '200ms', INVITATION_TTL: '1h', TEMPORAL_UI_URL: UI });
  slug = p.org.org.slug;
  owner = p.owner;
  tenants = await makeProject(p.platform, owner, 'shop', ['acme']);
}, 120_000);
afterAll(() => stopClusterPlatform(p));

/** The summary and the current details, as the UI reads them (describe, and the metadata query). */
async function shown(handle: WorkflowHandle, details: (d: string | undefined) => boolean) {
  const summary = await (await handle.describe()).staticSummary();
  const current = await eventually(
    async () => {
      const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
      if (!details(metadata.currentDetails)) throw new Error(`current details: ${metadata.currentDetails}`);
      return metadata.currentDetails;
    },
    20_000,
    'current details',
  );
  return { summary, details: current };
}

/** The workflow ids the list answers for a visibility query, once it lists all of `want`. */
async function listed(query: string, want: string[]): Promise<string[]> {
  return eventually(
    async () => {
      const ids: string[] = [];
      for await (const w of p.platform.services.temporal.workflow.list({ query })) ids.push(w.workflowId);
      const missing = want.filter((id) => !ids.includes(id));
      if (missing.length > 0) throw new Error(`not listed yet: ${missing.join(', ')}`);
      return ids;
    },
    20_000,
    `the list for ${query}`,
  );
}

it('shows a release with its summary, its current details and its slugs in the Temporal UI', async () => {
  const api = releaseClient(p.platform);
  const created = await api.create(owner, 'shop', {
    environment: 'dev',
    tenantId: tenants.acme,
    title: 'web 1.1.0',
    changes: [{ workload: 'web', tag: '1.1.0' }],
  });
  expect(created.status).toBe(201);
  const syncing = await api.status(owner, created.body.id, 'Syncing');
  started.push(syncing.workflowId);
  // The release's API page names its workflow and links to it in the Temporal UI.
  expect([syncing.workflowId, syncing.links]).toEqual([
    // Readable in the list: project, tenant, environment, then the unique part (issue 50).
    `release-shop-acme-dev-${created.body.id}`,
    { workflow: uiLink(syncing.workflowId), history: `/api/v2/releases/${created.body.id}/history` },
  ]);
  const handle = p.platform.services.temporal.workflow.getHandle(syncing.workflowId);

  expect(await shown(handle, (d) => d?.startsWith('waiting for the sync report') === true)).toEqual({
    summary: `${slug}/shop acme/dev: release web 1.1.0`,
    details: `waiting for the sync report of commit ${syncing.commitSha!.slice(0, 12)}`,
  });

  // The tenant is found by its slug, not only by its UUID.
  const query = `OrganizationSlug = '${slug}' AND ProjectSlug = 'shop' AND TenantSlug = 'acme' AND WorkflowType = 'releaseWorkflow'`;
  expect(await listed(query, [syncing.workflowId])).toEqual([syncing.workflowId]);

  const cli = locateTemporalCli(
    repoRoot(),
    process.env.TEMPORAL_CLI_PATH,
    (process.env.PATH ?? '').split(':'),
    () => undefined,
  );
  const described = await promisify(execFile)(cli, [
    'workflow',
    'describe',
    '--address',
    harnessState().temporalAddress,
    '--namespace',
    p.platform.config.temporal.namespace,
    '-w',
    syncing.workflowId,
  ]);
  expect(described.stdout).toContain(`${slug}/shop acme/dev: release web 1.1.0`);
}, 120_000);

it('shows a promotion waiting for its approval', async () => {
  const store = await makeProject(p.platform, owner, 'store', ['acme']);
  const api = promotionClient(p.platform);
  await api.prodApprovalPolicy(owner, 'store', 'prod-gate');
  await api.releaseToDev(owner, 'store', store.acme!, '2.0.0');
  const requested = await api.request(p.org.members.member!.token, 'store', {
    sourceEnvironment: 'dev',
    targetEnvironment: 'prod',
  });
  expect(requested.status).toBe(201);
  const blocked = await api.until(owner, requested.body.id, (b) => b.status === 'Blocked');
  started.push(blocked.workflowId);
  const handle = p.platform.services.temporal.workflow.getHandle(blocked.workflowId);
  expect(await shown(handle, (d) => d?.startsWith('waiting for') === true)).toEqual({
    summary: `${slug}/store prod: promote dev -> prod`,
    details: 'waiting for 1 approval (policy prod-gate)',
  });
  expect(await listed(`OrganizationSlug = '${slug}' AND ProjectSlug = 'store'`, [blocked.workflowId])).toEqual(
    expect.arrayContaining([blocked.workflowId]),
  );
  // The promotion's API page names its workflow and links to it in the Temporal UI.
  expect([blocked.workflowId, blocked.links]).toEqual([
    `promotion-store-acme-dev-to-prod-${blocked.id}`,
    { workflow: uiLink(blocked.workflowId), history: `/api/v2/promotions/${blocked.id}/history` },
  ]);
  await p.http.post(`/api/v2/promotions/${blocked.id}/cancel`, { token: owner, body: {} });
}, 120_000);

it('shows an invitation waiting for its acceptance until it expires', async () => {
  const res = await p.http.post<{ id: string; workflowId: string; expiresAt: string }>(
    `/api/v1/organizations/${slug}/invitations`,
    { token: owner, body: { email: 'ops.reader@example.test', role: 'viewer' } },
  );
  expect(res.status).toBe(201);
  started.push(res.body.workflowId);
  const handle = p.platform.services.temporal.workflow.getHandle(res.body.workflowId);
  const expiresAt = new Date(res.body.expiresAt).toISOString();
  const ui = await shown(handle, (d) => d?.startsWith('waiting for acceptance') === true);
  expect(ui).toEqual({
    summary: `${slug}: invitation ${res.body.id} as viewer, expires ${expiresAt}`,
    details: `waiting for acceptance until ${expiresAt}`,
  });
  // The invitee's address is personal data: not in what every reader of the Temporal UI sees.
  expect(JSON.stringify(ui)).not.toContain('ops.reader');
}, 60_000);

it("shows a member's digest gathering the events of its window", async () => {
  const member = p.org.members.member!;
  const prefs = await p.http.put('/api/v2/notifications/preferences', {
    token: member.token,
    body: { events: ['deployment'], channels: { deployment: ['in_app'] }, digestIntervalMs: 3_600_000 },
  });
  expect(prefs.status).toBe(200);
  const project = await p.platform.services.db('projects').where({ organization_id: p.org.org.id, slug: 'shop' });
  await recordDomainEvent(p.platform.services.db, {
    organizationId: p.org.org.id,
    projectId: project[0].id as string,
    type: DOMAIN_EVENT.releaseDeployed,
    payload: { releaseId: 'r-ui' },
  });
  const workflowId = digestWorkflowId(p.org.org.id, member.user.id);
  started.push(workflowId);
  const handle = p.platform.services.temporal.workflow.getHandle(workflowId);
  await eventually(() => handle.describe(), 20_000, 'the digest workflow');
  const seen = await shown(handle, (d) => d?.startsWith('gathering events until') === true);
  expect(seen.summary).toBe(`${slug}: notification digest of user ${member.user.id}`);
  const until = Date.parse(seen.details!.replace('gathering events until ', ''));
  expect(until - Date.now()).toBeGreaterThan(50 * 60_000);
}, 60_000);

it('shows a cluster heartbeat monitor checking for the next heartbeat', async () => {
  const { id, joinToken } = await createCluster(p, 'edge');
  const agent = await startAgent(p.grpc, { joinToken });
  try {
    const workflowId = `cluster-heartbeat-${id}`;
    started.push(workflowId);
    const handle = p.platform.services.temporal.workflow.getHandle(workflowId);
    await eventually(() => handle.describe(), 20_000, 'the heartbeat workflow');
    const seen = await shown(handle, (d) => d?.startsWith('Connected') === true);
    expect(seen.summary).toBe(`${slug}: cluster edge: agent heartbeat monitor`);
    expect(seen.details).toMatch(/^Connected: checks for a heartbeat at \d{4}-\d\d-\d\dT[\d:.]+Z$/);
  } finally {
    await agent.stop();
  }
}, 60_000);

it('lists every one of them by the organization slug', async () => {
  expect(started).toHaveLength(5);
  const ids = await listed(`OrganizationSlug = '${slug}'`, started);
  expect(ids).toEqual(expect.arrayContaining(started));
  const other = await listed(`OrganizationSlug = 'no-${slug}'`, []);
  expect(other).toEqual([]);
}, 60_000);
