import { scaled } from '../helpers/time-scale';
import type { Browser } from 'playwright-core';
import { startAgentGrpcServer, type RunningAgentServer } from '../../src/clusters/agent-grpc-server';
import { createLogger } from '../../src/logging/logger';
import { launchChromium, screenshot } from '../helpers/browser';
import { makeOrg } from '../helpers/fixtures';
import { startSmtpCapture } from '../helpers/smtp-capture';
import type { TestPlatform } from '../helpers/test-platform';
import { startAgent, type RunningAgent } from '../integration/clusters/cluster-harness';
import { makeProject } from '../integration/gitops/gitops-harness';
import { chartTarball } from '../integration/registry/chart-push';
import { tool } from '../integration/registry/oci-clients';
import { makeImageLayout } from '../integration/registry/oci-layout';
import { checkView, openUser, startUiPlatform, type UiUser } from './web-ui-harness';

/**
 * The operations views of the web UI (issue 33, part B) in Debian's chromium against the real platform: the
 * organization's SMTP relay set in the settings view and a test mail reaching a listener started here; a resource
 * grant given through the pickers and shown in the member's effective permissions; a kustomize base uploaded from
 * files and a chart pushed over the registry protocol from the browser, both listed with their versions; a cluster
 * joined by the reference agent with the join token the view showed, its drift shown field by field and cleared by a
 * sync sent from the view; a watch subscription added in the automation view and the version skopeo pushes to the
 * organization registry shown committed per target. Axe on every view.
 */
jest.setTimeout(scaled(120_000));

let platform: TestPlatform;
let grpc: RunningAgentServer;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: UiUser;
let agent: RunningAgent | undefined;
const SLUG = 'shop';

beforeAll(async () => {
  smtp = await startSmtpCapture();
  // The relay is this host's loopback in plain SMTP: allowed explicitly, as the notification suites do.
  platform = await startUiPlatform({
    NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
    NOTIFY_ALLOW_HTTP: 'true',
    NOTIFY_SMTP_ALLOWED_PORTS: `587,${smtp.port}`,
  });
  grpc = await startAgentGrpcServer(
    platform.services.clusters.agentHub,
    platform.config.clusters,
    createLogger('silent'),
    platform.services.metrics,
  );
  browser = await launchChromium();
  org = await makeOrg(platform, ['owner', 'viewer'], 'enterprise');
  await makeProject(platform, org.members.owner!.token, SLUG, ['acme']);
  owner = await openUser(browser, platform.url);
  await owner.page.goto('/login');
  await owner.page.getByLabel('Email').fill(org.members.owner!.user.email);
  await owner.page.getByLabel('Password').fill(org.members.owner!.password);
  await owner.page.getByRole('button', { name: 'Sign in' }).click();
  await owner.page.getByRole('heading', { name: 'Projects' }).waitFor();
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await browser?.close();
  await grpc?.stop(1000);
  await platform?.close();
  await smtp?.close();
});

afterEach(async () => {
  const step = (expect.getState().currentTestName ?? 'step').replace(/\W+/g, '-').slice(-60);
  await screenshot(owner.page, `after-${step}`, false);
  expect(owner.problems).toEqual([]);
});

describe('the operations views in chromium', () => {
  it('sets the SMTP relay (the password never shown again) and a test mail arrives at the listener', async () => {
    const page = owner.page;
    await page.goto('/settings');
    await page.getByText("Notification email goes through the platform's relay").waitFor();
    const form = page.getByRole('form', { name: 'SMTP settings' });
    await form.getByLabel('SMTP host').fill('127.0.0.1');
    await form.getByLabel('SMTP port').fill(String(smtp.port));
    await form.getByLabel('Security').selectOption('none');
    await form.getByLabel('SMTP user').fill('relay-user');
    await form.getByLabel('SMTP password').fill('relay-secret-1');
    await form.getByLabel('Sender address').fill('alerts@shop.example');
    await form.getByRole('button', { name: 'Save SMTP settings' }).click();
    await page.getByText(`Notification email goes through 127.0.0.1:${smtp.port} (none)`).waitFor();
    await page.getByText('a password is stored').waitFor();
    expect(await form.getByLabel(/^SMTP password/).inputValue()).toBe('');
    expect(await page.content()).not.toContain('relay-secret-1');

    // A port the platform does not allow is refused with the server's words under the form.
    await form.getByLabel('SMTP port').fill('2626');
    await form.getByRole('button', { name: 'Save SMTP settings' }).click();
    await page.getByRole('alert').filter({ hasText: 'SMTP port 2626 is not allowed' }).waitFor();
    await form.getByLabel('SMTP port').fill(String(smtp.port));

    const test = page.getByRole('form', { name: 'Send a test mail' });
    await test.getByLabel('Test recipient').fill('ops@shop.example');
    await test.getByRole('button', { name: 'Send a test mail' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Test mail: success in \d+ ms$/ })
      .waitFor();
    const mail = await smtp.waitFor('ops@shop.example', /^Test mail/);
    expect(mail.from).toBe('alerts@shop.example');
    await page.getByRole('heading', { name: 'Mail relay (SMTP)' }).scrollIntoViewIfNeeded();
    expect(await checkView(owner, 'settings-smtp')).toEqual([]);
  });

  it('grants a viewer a role on the project through the pickers and shows it in their effective permissions', async () => {
    const viewer = org.members.viewer!.user;
    const page = owner.page;
    await page.goto('/settings');
    const form = page.getByRole('form', { name: 'Grant a role on a resource' });
    await form.getByLabel('Subject type').selectOption({ label: 'Member' });
    await form.getByLabel('Subject', { exact: true }).selectOption({ label: viewer.email });
    await form.getByLabel('Resource type').selectOption({ label: 'Project' });
    await form.getByLabel('Resource', { exact: true }).selectOption(SLUG);
    await form.getByLabel('Granted role').selectOption('member');
    await form.getByRole('button', { name: 'Grant' }).click();
    const grants = page.getByRole('table', { name: 'Resource grants' });
    await grants
      .getByRole('row', { name: new RegExp(`user ${viewer.email} project .*\\(${SLUG}\\) member`) })
      .waitFor();

    const effective = page.getByRole('region', { name: 'Effective permissions' });
    await effective.getByLabel('Member').selectOption({ label: viewer.email });
    await effective.getByText(`member on project ${SLUG} (via user)`).waitFor();
    await effective.scrollIntoViewIfNeeded();
    expect(await checkView(owner, 'settings-grants')).toEqual([]);
  });

  it('uploads a kustomize base from files and pushes a chart over OCI, both listed with their versions', async () => {
    const page = owner.page;
    await page.goto('/registry');
    const base = page.getByRole('form', { name: 'Upload a kustomize base' });
    const deployment = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec: {containers: [{name: web, image: "nginx:1.27"}]}',
      '',
    ].join('\n');
    const upload = async (version: string, replicas: string) => {
      await base.getByLabel('Kustomize base name').fill('web-base');
      await base.getByLabel('Version').fill(version);
      await base.getByLabel('Files').setInputFiles([
        { name: 'kustomization.yaml', mimeType: 'text/yaml', buffer: Buffer.from('resources: [deployment.yaml]\n') },
        { name: 'deployment.yaml', mimeType: 'text/yaml', buffer: Buffer.from(deployment.replace('spec:', replicas)) },
      ]);
      await base.getByRole('button', { name: 'Upload' }).click();
    };
    // A manifest with a wrong field type is refused, with the result that stopped it.
    await upload('1.0.0', 'spec:\n  replicas: many');
    await page.getByRole('alert').filter({ hasText: 'validation failed: nothing was stored' }).waitFor();
    await page.getByRole('list', { name: 'Why it was refused' }).getByText('spec.replicas').waitFor();
    const bases = page.getByRole('table', { name: 'Kustomize bases' });
    // One after the other: a form empties once the server accepted what it sent.
    for (const [version, replicas] of [
      ['1.0.0', '2'],
      ['1.1.0', '3'],
    ] as const) {
      await upload(version, `spec:\n  replicas: ${replicas}`);
      await bases.getByRole('row', { name: new RegExp(`web-base ${version.replace(/\./g, '\\.')} `) }).waitFor();
    }

    const chart = page.getByRole('form', { name: 'Push a chart' });
    const push = async (name: string, buffer: Buffer) => {
      await chart.getByLabel(/^Chart archive/).setInputFiles({ name, mimeType: 'application/gzip', buffer });
      await chart.getByRole('button', { name: 'Push chart' }).click();
    };
    await push('notes.tgz', Buffer.from('not a chart'));
    await page.getByRole('alert').filter({ hasText: 'not a gzip archive' }).waitFor();
    for (const version of ['0.1.0', '0.2.0']) {
      await push(`api-${version}.tgz`, chartTarball('api', version, { appVersion: `${version}-app` }));
      await page
        .getByRole('status')
        .filter({ hasText: `Pushed api ${version} to oci://` })
        .waitFor();
    }
    const versions = page.getByRole('table', { name: 'Versions of charts/api' });
    await versions.getByRole('row', { name: /0\.1\.0 0\.1\.0-app/ }).waitFor();
    await versions.getByRole('row', { name: /0\.2\.0 0\.2\.0-app/ }).waitFor();
    expect(await checkView(owner, 'registry-uploads')).toEqual([]);
  });

  it('adds a watch subscription; the version skopeo pushes shows committed for each target, recorded only in prod', async () => {
    const page = owner.page;
    const token = org.members.owner!.token;
    const generated = await fetch(`${platform.url}/api/v2/projects/${SLUG}/delivery/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(generated.status).toBe(200);
    await page.goto(`/projects/${SLUG}/watch`);
    await page.getByText('No workload follows a repository yet.').waitFor();
    await page.getByRole('button', { name: 'New subscription' }).click();
    const form = page.getByRole('form', { name: 'New subscription' });
    await form.getByLabel('Workload', { exact: true }).selectOption('web');
    await form.getByLabel(/^Repository/).fill(`${SLUG}/web`);
    await form.getByLabel('Policy').selectOption('semver');
    await form.getByLabel('Range, pattern or tag').fill('>=1.0.0 <2.0.0');
    await form.getByLabel(/^Environments updated/).fill('dev');
    await form.getByRole('button', { name: 'Create subscription' }).click();
    await page
      .getByRole('table', { name: 'Watch subscriptions' })
      .getByRole('row', { name: /web image shop\/web semver >=1\.0\.0 <2\.0\.0 dev all/ })
      .waitFor();

    const layout = makeImageLayout({ 'version.txt': '1.4.0\n' });
    const pushed = await tool('skopeo', [
      '--insecure-policy',
      'copy',
      '--dest-tls-verify=false',
      '--dest-creds',
      `token:${token}`,
      `oci:${layout.dir}:v1`,
      `docker://${new URL(platform.url).host}/${org.org.slug}/${SLUG}/web:1.4.0`,
    ]);
    expect([pushed.ok, pushed.stderr]).toEqual([true, '']);
    // Polled: the discovery appears without a reload.
    const row = page.getByRole('table', { name: 'Versions found' }).getByRole('row', { name: /shop\/web:1\.4\.0/ });
    await row.getByText('acme/dev: committed, waiting for the controller').waitFor({ timeout: scaled(30_000) });
    await row.getByRole('cell', { name: 'prod', exact: true }).waitFor();
    expect(await checkView(owner, 'automation')).toEqual([]);
  });

  it("a viewer's chart push is refused by the registry and the refusal is shown", async () => {
    const viewer = await openUser(browser, platform.url);
    try {
      await viewer.page.goto('/login');
      await viewer.page.getByLabel('Email').fill(org.members.viewer!.user.email);
      await viewer.page.getByLabel('Password').fill(org.members.viewer!.password);
      await viewer.page.getByRole('button', { name: 'Sign in' }).click();
      await viewer.page.getByRole('heading', { name: 'Projects' }).waitFor();
      await viewer.page.goto('/registry');
      await viewer.page
        .getByRole('form', { name: 'Push a chart' })
        .getByLabel(/^Chart archive/)
        .setInputFiles({ name: 'api.tgz', mimeType: 'application/gzip', buffer: chartTarball('api', '0.3.0') });
      await viewer.page.getByRole('button', { name: 'Push chart' }).click();
      await viewer.page
        .getByRole('alert')
        .filter({ hasText: /was refused: DENIED: your role does not allow push/ })
        .waitFor();
      expect(viewer.problems).toEqual([]);
    } finally {
      await viewer.context.close();
    }
  });

  it('joins a cluster with the token the view showed; its drift shows field by field and clears after a sync', async () => {
    const page = owner.page;
    await page.goto('/clusters');
    await page.getByLabel('Cluster name').fill('edge-1');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('link', { name: 'edge-1' }).click();
    await page.getByRole('button', { name: 'Create a join token' }).click();
    const joinToken = (await page.locator('[data-secret]').textContent()) ?? '';
    expect(joinToken).toMatch(/^cjt_/);
    agent = await startAgent(grpc, { joinToken });
    const heading = page.getByRole('heading', { name: /Cluster edge-1/ });
    await heading.getByText('Connected').waitFor({ timeout: scaled(30_000) });
    await page.getByText('No drift: the live state matches Git.').waitFor();

    agent.cluster.setDrift([
      {
        resource: 'Deployment/web/api',
        application: 'web',
        fields: [
          { path: 'spec.replicas', desired: '3', live: '5' },
          { path: 'spec.template.spec.containers[0].image', desired: 'api:1.4.0', live: 'api:1.3.9' },
        ],
      },
    ]);
    const fields = page.getByRole('table', { name: 'Drifted fields of Deployment/web/api' });
    await fields.getByRole('row', { name: 'spec.replicas 3 5' }).waitFor({ timeout: scaled(30_000) });
    await fields.getByRole('row', { name: 'spec.template.spec.containers[0].image api:1.4.0 api:1.3.9' }).waitFor();
    expect(await checkView(owner, 'cluster-drift')).toEqual([]);

    const commands = page.getByRole('form', { name: 'Send a command' });
    await commands.getByLabel('Command').selectOption('sync');
    await commands.getByLabel('Application').fill('web');
    await commands.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('table', { name: 'Commands' })
      .getByText('succeeded')
      .waitFor({ timeout: scaled(30_000) });
    await page
      .getByRole('heading', { name: /Deployment\/web\/api/ })
      .getByText('resolved')
      .waitFor({ timeout: scaled(30_000) });
  });
});
