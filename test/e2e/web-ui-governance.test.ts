// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import { scaled } from '../helpers/time-scale';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/browser';
import { addMember, makeOrg } from '../helpers/fixtures';
import { httpClient } from '../helpers/http-client';
import { startReceiver } from '../helpers/http-receiver';
import { eventually } from '../helpers/net';
import type { TestPlatform } from '../helpers/test-platform';
import { cliRunner } from '../integration/cli/cli-harness';
import { makeProject } from '../integration/gitops/gitops-harness';
import { promotionClient } from '../integration/promotions/promotion-harness';
import { checkView, openUser, signIn, startUiPlatform, type UiUser } from './web-ui-harness';
import { widgetCrd } from '../helpers/widget-crd';

/**
 * The web UI's governance, operations and settings views (issue 33) in Debian's chromium against the real platform:
 * a webhook channel pointing at a listener started here (test delivery, delivery log), a freeze and a break-glass
 * session whose audited action carries the session id, a CRD registered and a custom resource validated against it,
 * the audit log, a cluster's join token, settings with a key shown once, and the registry. Axe on every view.
 */
jest.setTimeout(scaled(120_000));

let platform: TestPlatform;
let browser: Browser;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: UiUser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let tenants: Record<string, string>;
const SLUG = 'shop';

beforeAll(async () => {
  receiver = await startReceiver();
  // The channel's target is this host's loopback: allowed explicitly, as the notification suites do.
  platform = await startUiPlatform({
    NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
    NOTIFY_ALLOW_HTTP: 'true',
    NOTIFY_ALLOWED_PORTS: String(receiver.port),
  });
  browser = await launchChromium();
  org = await makeOrg(platform, ['owner'], 'enterprise');
  tenants = await makeProject(platform, ownerToken(), SLUG, ['acme']);
  const generated = await httpClient(platform.url).post(`/api/v2/projects/${SLUG}/delivery/generate`, {
    token: ownerToken(),
    body: {},
  });
  expect(generated.status).toBe(200);
  owner = await openUser(browser, platform.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await receiver?.close();
});

afterEach(async () => {
  const step = (expect.getState().currentTestName ?? 'step').replace(/\W+/g, '-').slice(-60);
  await screenshot(owner.page, `after-${step}`, false);
  expect(owner.problems).toEqual([]);
});

const ownerToken = () => org.members.owner!.token;
/** A `datetime-local` value of the browser's (and this process's) wall clock, `offsetMs` from now. */
const localInput = (offsetMs: number) => {
  const d = new Date(Date.now() + offsetMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
};

describe('the governance, operations and settings views in chromium', () => {
  it('signs in and reaches every view from the navigation', async () => {
    const page = owner.page;
    await signIn(owner, org.members.owner!);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [link, heading] of [
      ['Governance', 'Governance'],
      ['Clusters', 'Clusters'],
      ['Validation', 'Validation and schemas'],
      ['Registry', 'Registry'],
      ['Audit', 'Audit log'],
      [/^Settings/, /^Settings of/],
      [/^Notifications/, 'Notifications'],
    ] as const) {
      await nav.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
  });

  it('adds a webhook channel to a local listener, sends a test delivery and sees it in the delivery log', async () => {
    const page = owner.page;
    await page.goto('/notifications');
    // Personal preferences are saved and read back (a daily digest, then each notification at once again).
    const prefs = () => page.getByRole('form', { name: 'Notification preferences' });
    for (const [label, value] of [
      ['Daily digest', '86400000'],
      ['Each notification at once', ''],
    ]) {
      await prefs().getByLabel('Delivery').selectOption({ label });
      await prefs().getByRole('button', { name: 'Save preferences' }).click();
      await page.waitForLoadState('networkidle');
      await page.reload();
      expect(await prefs().getByLabel('Delivery').inputValue()).toBe(value);
    }
    await page.getByLabel('Project', { exact: true }).selectOption(SLUG);
    const form = page.getByRole('form', { name: 'Add a webhook channel' });
    await form.getByLabel('Channel name').fill('ops-hook');
    await form.getByLabel('Target URL').fill(receiver.url('/hook'));
    await form.getByLabel('Events').fill('deployment');
    await form.getByRole('button', { name: 'Add channel' }).click();
    const card = page.getByRole('listitem', { name: 'Channel ops-hook' });
    await card.getByText('Nothing delivered yet.').waitFor();
    await card.getByRole('button', { name: 'Send a test delivery' }).click();
    await card.getByRole('status').filter({ hasText: 'Test delivery: success (HTTP 200)' }).waitFor();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
    const log = card.getByRole('table', { name: 'Delivery log of ops-hook' });
    await log.getByRole('cell', { name: '200' }).waitFor();
    await log.getByText('{"ok":true}').waitFor();
    // Toggling it on is the channel's own switch.
    await card.getByRole('switch', { name: 'Active' }).click({ force: true });
    await card.getByRole('switch', { name: 'Active', checked: true }).waitFor();
    expect(await checkView(owner, 'notifications')).toEqual([]);
  });

  it('incident: freezes prod, opens a break-glass session, rolls back with a required reason under it, audited with its id; then closes it', async () => {
    // Production ran web 8.0.0, then 8.1.0, both reported Healthy by the controller: 8.1.0 is what a rollback restores.
    const releases = promotionClient(platform);
    for (const tag of ['8.0.0', '8.1.0']) {
      expect((await releases.releaseTo(ownerToken(), SLUG, 'prod', tenants.acme!, tag)).status).toBe('Healthy');
    }
    const page = owner.page;
    await page.goto('/governance');
    const freeze = page.getByRole('form', { name: 'Add a freeze window' });
    await freeze.getByLabel('Freeze name').fill('Launch');
    await freeze.getByLabel('Reason').fill('launch week');
    await freeze.getByLabel('Starts').fill(localInput(-3_600_000));
    await freeze.getByLabel('Ends').fill(localInput(3_600_000));
    await freeze.getByLabel('Environments (empty: all)').fill('prod');
    await freeze.getByRole('button', { name: 'Add freeze' }).click();
    const freezes = page.getByRole('table', { name: 'Freeze windows' });
    await freezes.getByRole('row', { name: /Launch active now/ }).waitFor();
    // A recurring window, shown with its rule and time zone.
    await freeze.getByLabel('Freeze name').fill('Weekend');
    await freeze.getByLabel('Reason').fill('no weekend deploys');
    await freeze.getByRole('radio', { name: 'Recurring' }).check({ force: true });
    await freeze.getByLabel('Rule (RRULE)').fill('FREQ=WEEKLY;BYDAY=SA');
    await freeze.getByLabel('Time zone').fill('Europe/Berlin');
    await freeze.getByLabel('Duration (minutes)').fill('60');
    await freeze.getByRole('button', { name: 'Add freeze' }).click();
    await freezes.getByText('FREQ=WEEKLY;BYDAY=SA in Europe/Berlin, 60 min each').waitFor();

    const bulk = () =>
      httpClient(platform.url).post(`/api/v2/projects/${SLUG}/bulk-update`, {
        token: ownerToken(),
        body: { workload: 'web', tag: '9.9.9', pairs: [{ tenant: 'acme', environment: 'prod' }] },
      });
    expect((await bulk()).status).toBe(409);

    const open = page.getByRole('form', { name: 'Open a break-glass session' });
    await open.getByLabel('Justification').fill('prod is down, hotfix');
    await open.getByLabel('Duration (minutes, up to 480)').fill('30');
    await open.getByLabel('Projects (slugs; empty: all)').fill(SLUG);
    await open.getByRole('button', { name: 'Open a session' }).click();
    const session = page.getByRole('region', { name: /^Break-glass session / });
    await session.getByText('open', { exact: true }).waitFor();
    const sessionId = ((await session.getAttribute('aria-label')) ?? '').replace('Break-glass session ', '');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    // The top bar's unread count is live: the session's opening reaches every member's inbox.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Notifications \d+ unread$/ })
      .waitFor();
    expect((await bulk()).status).toBe(200);
    const actions = session.getByRole('table', { name: 'Actions under the session' });
    await actions.getByRole('row', { name: new RegExp(`image\\.update .*${sessionId}`) }).waitFor();
    await session.scrollIntoViewIfNeeded();
    expect(await checkView(owner, 'governance')).toEqual([]);

    // A release under the session: its page names the session that bypassed the approval policy (who, why), linked
    // to the session's audit entries, where it used to say only that the policy requires one approval.
    const http = httpClient(platform.url);
    const policy = await http.post('/api/v2/approval-policies', {
      token: ownerToken(),
      body: {
        project: SLUG,
        name: 'prod needs one',
        environments: ['prod'],
        requiredApprovals: 1,
        eligibleApprovers: { roles: ['admin'] },
      },
    });
    expect(policy.status).toBe(201);
    const hotfix = await http.post<{ id: string }>(`/api/v2/projects/${SLUG}/releases`, {
      token: ownerToken(),
      body: { environment: 'prod', tenantId: 'acme', title: 'hotfix', changes: [{ workload: 'web', tag: '9.9.10' }] },
    });
    expect(hotfix.status).toBe(201);

    // The way back, in the frozen environment under the session: the preview names what changes, Confirm waits for a
    // reason, and the rollback's entries carry the reason and the session.
    await page.goto(`/projects/${SLUG}/rollback`);
    await page.getByLabel('Environment', { exact: true }).selectOption('prod');
    await page.getByRole('button', { name: 'Preview rollback' }).click();
    await page.getByText(/Restores web 8\.1\.0/).waitFor();
    await page.getByRole('list', { name: 'Versions (now → after the rollback)' }).getByText('8.1.0').first().waitFor();
    const confirmRollback = page.getByRole('button', { name: 'Confirm rollback' });
    expect(await confirmRollback.isDisabled()).toBe(true);
    await page.getByLabel('Reason (required: it is recorded in the audit log)').fill('   ');
    expect(await confirmRollback.isDisabled()).toBe(true);
    await page.getByLabel('Reason (required: it is recorded in the audit log)').fill('INC-42: hotfix broke checkout');
    await confirmRollback.click();
    await page.waitForURL(/\/releases\/[0-9a-f-]{36}$/);
    const rollbackId = page.url().split('/releases/')[1] ?? '';
    await page.getByRole('heading', { name: /Rollback to web 8\.1\.0: INC-42: hotfix broke checkout/ }).waitFor();
    const initiated = await http.get<{ items: { details: Record<string, unknown> }[] }>(
      `/api/v2/audit-logs?action=rollback.initiate&resourceId=${rollbackId}`,
      { token: ownerToken() },
    );
    expect(initiated.body.items[0]?.details).toMatchObject({
      reason: 'INC-42: hotfix broke checkout',
      breakGlass: { sessionId },
    });

    await page.goto(`/releases/${hotfix.body.id}`);
    await page.getByText(`policy “prod needs one” requires 1`).first().waitFor();
    await page
      .getByText(/bypassed by break-glass session .* \(.+@.+: prod is down, hotfix\)/)
      .first()
      .waitFor();
    await page.getByRole('link', { name: sessionId.slice(0, 8) }).click();
    await page.waitForURL(new RegExp(`/audit\\?breakGlassSessionId=${sessionId}$`));
    const entries = page.getByRole('table', { name: 'Audit entries' });
    for (const action of ['break_glass.open', 'image.update', 'release.break_glass.apply', 'rollback.initiate']) {
      await entries.getByRole('rowheader', { name: action, exact: true }).first().waitFor();
    }
    expect(await page.getByLabel('Break-glass session').inputValue()).toBe(sessionId);
    await page.goto('/governance');
    await page.getByRole('button', { name: `Show session ${sessionId}` }).click();
    await session.waitFor();

    // Closing asks for the session's name (its id's first 8 characters) first.
    await session.getByRole('button', { name: `Close ${sessionId.slice(0, 8)}` }).click();
    const confirm = session.getByRole('button', { name: `Close ${sessionId.slice(0, 8)}` });
    expect(await confirm.isDisabled()).toBe(true);
    await session.getByLabel(`Type ${sessionId.slice(0, 8)} to close it`).fill(sessionId.slice(0, 8));
    await confirm.click();
    await session.getByText('closed', { exact: true }).waitFor();

    // The evaluate view runs the project's policies over pasted manifests (none yet: it passes).
    await page.getByLabel('Project', { exact: true }).selectOption(SLUG);
    await page.getByText('No policy in this project.').waitFor();
    await page
      .getByLabel('Manifests to evaluate (YAML)')
      .fill('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('status').filter({ hasText: 'Passes: 0 policies, 0 violations.' }).waitFor();
  });

  it('registers a CRD and validates a custom resource against it, with the bad field marked', async () => {
    const page = owner.page;
    await page.goto('/validation');
    await page
      .getByLabel('CustomResourceDefinition (YAML)')
      .fill(
        widgetCrd([
          '        properties:',
          '          spec:',
          '            type: object',
          '            required: [size]',
          '            properties: {size: {type: integer, description: How many widgets}}',
        ]),
      );
    await page.getByRole('button', { name: 'Register CRD' }).click();
    await page
      .getByRole('table', { name: 'Registered CRDs' })
      .getByRole('rowheader', { name: 'widgets.example.com' })
      .waitFor();

    await page
      .getByLabel('Manifests (YAML, documents separated by ---)')
      .fill(
        ['apiVersion: example.com/v1', 'kind: Widget', 'metadata:', '  name: big-one', 'spec:', '  size: lots'].join(
          '\n',
        ),
      );
    await page.getByRole('button', { name: 'Validate' }).click();
    const results = page.getByRole('region', { name: 'Results for Widget/big-one' });
    await results.getByText('error').first().waitFor();
    await results.getByText('spec.size').waitFor();
    await page.locator('.marked-yaml mark.bad', { hasText: 'size: lots' }).waitFor();

    // The schema browser lists the custom kind beside the built-in ones and opens its field tree.
    await page.getByLabel('Find a kind').fill('Widget');
    await page.getByRole('button', { name: 'Widget', exact: true }).click();
    const tree = page.getByRole('region', { name: 'Fields of Widget' });
    await tree.getByText('spec').first().click();
    await tree.getByText('How many widgets').waitFor();
    expect(await checkView(owner, 'validation')).toEqual([]);
  });

  it('filters the audit log and opens an entry with its break-glass details', async () => {
    const page = owner.page;
    await page.goto('/audit');
    // From the keyboard only: type the filter, Enter submits; Tab reaches the entry's details, Enter opens them.
    const filters = page.getByRole('form', { name: 'Audit filters' });
    await filters.getByLabel('Event type').focus();
    await page.keyboard.type('image.update');
    await page.keyboard.press('Enter');
    const table = page.getByRole('table', { name: 'Audit entries' });
    // The filter goes to the address first (a router navigation), then the list reloads: wait for the filtered one.
    await page.waitForURL(/action=image\.update/);
    await eventually(async () => (await table.getByRole('row').count()) === 2, 10_000, 'the filtered list');
    await table.getByRole('rowheader', { name: 'image.update' }).waitFor();
    const focused = () => page.evaluate('document.activeElement && document.activeElement.textContent');
    for (let i = 0; i < 20 && (await focused()) !== 'Show details'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Show details');
    await page.keyboard.press('Enter');
    await page.getByText('"justification": "prod is down, hotfix"').waitFor();
    expect(await checkView(owner, 'audit')).toEqual([]);
    // The IAM view's break-glass category takes in what was done under a session: the update made under it stays.
    // The switch's state comes from the address, which react-router updates in a transition: click, then wait for it.
    const iamOnly = page.getByRole('switch', { name: /IAM events only/ });
    await iamOnly.click({ force: true });
    await page.waitForURL(/iam=1/);
    await eventually(async () => iamOnly.isChecked(), 5_000, 'the IAM switch on');
    await page.waitForLoadState('networkidle');
    await table.getByRole('rowheader', { name: 'image.update' }).waitFor();
    await filters.getByLabel('Event type').fill('promotion.execute');
    await page.keyboard.press('Enter');
    await page.getByText('No audit entry matches these filters.').waitFor();
  });

  it('registers a cluster, shows its join token once with the agent command, and queues a command', async () => {
    const page = owner.page;
    await page.goto('/clusters');
    await page.getByText('No cluster registered yet').waitFor();
    await page.getByLabel('Cluster name').fill('prod-eu-1');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('link', { name: 'prod-eu-1' }).click();
    await page
      .getByRole('heading', { name: /Cluster prod-eu-1/ })
      .getByText('Disconnected')
      .waitFor();
    await page.getByRole('button', { name: 'Create a join token' }).click();
    const secret = page.locator('[data-secret]');
    expect(await secret.textContent()).toMatch(/^cjt_/);
    await page.getByText('--join-token cjt_').waitFor();
    await page.getByRole('button', { name: 'Rotate the agent credential' }).click();
    await page.getByText(/^New agent credential/).waitFor();
    expect(await secret.count()).toBe(2);
    const commands = page.getByRole('form', { name: 'Send a command' });
    await commands.getByLabel('Command').selectOption('refresh');
    await commands.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('table', { name: 'Commands' }).getByText('queued').waitFor();
    const bind = page.getByRole('form', { name: 'Bind a project' });
    await bind.getByLabel('Project').selectOption(SLUG);
    await bind.getByLabel('Environments (empty: all)').fill('prod');
    await bind.getByRole('button', { name: 'Bind' }).click();
    const bindings = page.getByRole('table', { name: 'Agent bindings' });
    await bindings.getByRole('row', { name: /shop all prod \(1\.31\)/ }).waitFor();
    expect(await checkView(owner, 'cluster')).toEqual([]);
    // Shown once: the token is gone after a reload.
    await page.reload();
    await page.getByRole('heading', { name: /Cluster prod-eu-1/ }).waitFor();
    expect(await page.locator('[data-secret]').count()).toBe(0);
  });

  it('settings: invites, shows a new API key once, lists features of the plan; CI job: the key runs whoami and a CLI release, seen in the UI', async () => {
    const page = owner.page;
    await page.goto('/settings');
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('Email to invite').fill('new.person@example.com');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page
      .getByRole('table', { name: 'Invitations' })
      .getByRole('rowheader', { name: 'new.person@example.com' })
      .waitFor();
    // Revoking asks for the invited address first.
    const invitations = page.getByRole('table', { name: 'Invitations' });
    await invitations.getByRole('button', { name: 'Revoke new.person@example.com' }).click();
    await invitations.getByLabel('Type new.person@example.com to revoke it').fill('new.person@example.com');
    await invitations.getByRole('button', { name: 'Revoke new.person@example.com' }).click();
    await invitations.getByText('revoked').waitFor();
    const team = page.getByRole('form', { name: 'Create a team' });
    await team.getByLabel('Team slug').fill('platform');
    await team.getByLabel('Team name').fill('Platform');
    await team.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('table', { name: 'Teams' }).getByRole('rowheader', { name: 'Platform (platform)' }).waitFor();
    const account = page.getByRole('form', { name: 'Create a service account' });
    await account.getByLabel('Account name').fill('deployer');
    await account.getByRole('button', { name: 'Create account' }).click();
    const token = page.getByRole('form', { name: 'Create a token for deployer' });
    await token.getByLabel('Token description').fill('pipeline');
    await token.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Token of deployer').waitFor();
    await page
      .getByRole('table', { name: 'Tokens of deployer' })
      .getByRole('rowheader', { name: 'pipeline' })
      .waitFor();
    await page.getByLabel('Project', { exact: true }).selectOption(SLUG);
    const key = page.getByRole('form', { name: 'Create an API key' });
    await key.getByLabel('Key name').fill('ci');
    await key.getByRole('checkbox', { name: 'write' }).check({ force: true });
    await key.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('status').filter({ hasText: 'API key ci' }).locator('[data-secret]');
    await shown.waitFor();
    await page.getByRole('status').filter({ hasText: 'API key ci' }).getByRole('button', { name: 'Copy' }).waitFor();
    const value = (await shown.textContent()) ?? '';
    expect(value.length).toBeGreaterThan(20);
    await page.getByRole('table', { name: 'API keys' }).getByRole('rowheader', { name: 'ci' }).waitFor();
    await page.getByRole('table', { name: 'Features' }).getByRole('rowheader', { name: 'crd upload' }).waitFor();
    expect(await checkView(owner, 'settings')).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { name: /^Settings of/ }).waitFor();
    expect(await page.content()).not.toContain(value);

    // The CI job's journey with the key just shown: a smoke test (whoami names the key, its project and scopes), a
    // release through the CLI, and that release seen in the UI, the key named as who made it.
    const cli = cliRunner(platform.url);
    try {
      const env = { DELIVERY_TOKEN: value, DELIVERY_PROJECT: SLUG };
      const who = await cli.run(['whoami', '-o', 'json'], { env });
      expect([who.code, who.stderr]).toEqual([0, '']);
      expect(JSON.parse(who.stdout)).toMatchObject({
        kind: 'api_key',
        credential: { name: 'ci' },
        project: { slug: SLUG },
        scopes: ['read', 'write'],
      });
      const args = ['release', 'create', '--env', 'dev', '--tenant', 'acme', '--set', 'web=2.2.0'];
      const created = await cli.run([...args, '--title', 'ci build 2.2.0', '-o', 'json'], { env });
      expect([created.code, created.stderr]).toEqual([0, '']);
      const release = JSON.parse(created.stdout) as { id: string; createdBy: string };
      expect(release.createdBy).toMatch(/^api-key:[0-9a-f-]{36} \(ci\)$/);
      await page.goto(`/projects/${SLUG}/releases`);
      await page.getByRole('link', { name: 'ci build 2.2.0' }).click();
      await page.waitForURL(`**/releases/${release.id}`);
      await page.getByRole('heading', { name: /ci build 2\.2\.0/ }).waitFor();
      await page.goto(`/audit?action=release.create&resourceId=${release.id}`);
      const entry = page
        .getByRole('table', { name: 'Audit entries' })
        .getByRole('row')
        .filter({ hasText: 'ci build 2.2.0' });
      await entry.getByText(release.createdBy, { exact: false }).waitFor();
    } finally {
      cli.close();
    }
  });

  it('registry: a manifest bundle with its files', async () => {
    const uploaded = await httpClient(platform.url).post('/api/v2/org-manifest-bundles', {
      token: ownerToken(),
      body: {
        name: 'config',
        version: '1.0.0',
        files: { 'configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n' },
      },
    });
    expect(uploaded.status).toBe(201);
    const page = owner.page;
    await page.goto('/registry');
    await page.getByText('No chart pushed yet').waitFor();
    await page.getByRole('button', { name: 'Files of config 1.0.0' }).click();
    await page.getByRole('region', { name: 'Files of config 1.0.0' }).getByText('configmap.yaml').click();
    await page.getByText('kind: ConfigMap').waitFor();
    expect(await checkView(owner, 'registry')).toEqual([]);
  });

  it('in an organization on the Free plan, gated parts say which plan they need', async () => {
    const free = await makeOrg(platform, ['owner']);
    await addMember(platform, free.org, org.members.owner!.user, 'admin');
    const page = owner.page;
    await page.goto('/validation');
    await page.getByLabel('Organization').selectOption(free.org.id);
    await page
      .getByText('Custom resource definitions need the Enterprise plan; this organization is on Free.')
      .waitFor();
    expect(await page.getByLabel('CustomResourceDefinition (YAML)').count()).toBe(0);
    await page.goto('/settings');
    await page.getByText('Service accounts need the Enterprise plan; this organization is on Free.').waitFor();
    await page.goto('/notifications');
    await page.getByText('Escalation policies need the Pro plan; this organization is on Free.').waitFor();
    expect(await checkView(owner, 'notifications-free-plan')).toEqual([]);
  });
});
