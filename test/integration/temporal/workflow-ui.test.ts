import { makeOrg } from '../../helpers/fixtures';
import { eventually } from '../../helpers/net';
import { harnessState } from '../../helpers/harness-state';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';
import { locateTemporalCli } from '../../../src/embedded/temporal-cli';
import { repoRoot } from '../../../src/paths';
import { makeProject } from '../gitops/gitops-harness';
import { releaseClient } from '../releases/release-harness';

/**
 * What ops see in the Temporal UI, read as the UI reads it from the real dev server: a release's static summary names
 * organization, project, tenant, environment and what it does; its current details say what it waits for; the
 * workflow list filters by organization and project slug; `temporal workflow describe` shows the summary.
 */
let platform: TestPlatform;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: string;
let tenants: Record<string, string>;

beforeAll(async () => {
  platform = await startTestPlatform();
  org = await makeOrg(platform, ['owner']);
  owner = org.members.owner!.token;
  tenants = await makeProject(platform, owner, 'shop', ['acme']);
}, 120_000);
afterAll(() => platform.close());

it('shows a release with its summary, its current details and its slugs in the Temporal UI', async () => {
  const api = releaseClient(platform);
  const created = await api.create(owner, 'shop', {
    environment: 'dev',
    tenantId: tenants.acme,
    title: 'web 1.1.0',
    changes: [{ workload: 'web', tag: '1.1.0' }],
  });
  expect(created.status).toBe(201);
  const syncing = await api.status(owner, created.body.id, 'Syncing');
  const client = platform.services.temporal;
  const handle = client.workflow.getHandle(syncing.workflowId);

  const described = await handle.describe();
  expect(await described.staticSummary()).toBe(`${org.org.slug}/shop acme/dev: release web 1.1.0`);
  const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
  expect(metadata.currentDetails).toBe(`waiting for the sync report of commit ${syncing.commitSha!.slice(0, 12)}`);

  const query = `OrganizationSlug = '${org.org.slug}' AND ProjectSlug = 'shop' AND WorkflowType = 'releaseWorkflow'`;
  const listed = await eventually(
    async () => {
      const ids: string[] = [];
      for await (const w of client.workflow.list({ query })) ids.push(w.workflowId);
      if (!ids.includes(syncing.workflowId)) throw new Error(`not listed yet: ${ids.join(', ')}`);
      return ids;
    },
    20_000,
    'the release in the list filtered by slugs',
  );
  expect(listed).toEqual([syncing.workflowId]);

  const cli = locateTemporalCli(
    repoRoot(),
    process.env.TEMPORAL_CLI_PATH,
    (process.env.PATH ?? '').split(':'),
    () => undefined,
  );
  const shown = await promisify(execFile)(cli, [
    'workflow',
    'describe',
    '--address',
    harnessState().temporalAddress,
    '--namespace',
    platform.config.temporal.namespace,
    '-w',
    syncing.workflowId,
  ]);
  expect(shown.stdout).toContain(`${org.org.slug}/shop acme/dev: release web 1.1.0`);
}, 120_000);
