// Over 400 lines: one feature's journeys, sharing one platform (or test environment) and the fixtures its setup makes
// once.
import { scaled } from '../helpers/time-scale';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/browser';
import { makeOrg } from '../helpers/fixtures';
import { httpClient } from '../helpers/http-client';
import { eventually } from '../helpers/net';
import type { TestPlatform } from '../helpers/test-platform';
import { awayFromStepEdge, totpAt } from '../integration/identity/identity-harness';
import { releaseClient } from '../integration/releases/release-harness';
import { checkView, enableTotp, openUser, startUiPlatform, type UiUser } from './web-ui-harness';

/**
 * The web UI end to end in Debian's chromium against the real platform (PostgreSQL, Temporal, git): sign in with
 * MFA, create a project, a release approved by a second user in a second browser, its timeline reaching Healthy on
 * controller reports, compare, bulk update, a promotion blocked on approvals then approved, and a rollback. Every
 * view is screenshotted (.artifacts/ui/) and checked with axe.
 */
// Each step drives two browsers and real workflows on a shared 2-core machine.
jest.setTimeout(scaled(120_000));

let platform: TestPlatform;
let browser: Browser;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: UiUser;
let approver: UiUser;
let secret: string;
let releaseId = '';
const SLUG = 'shop';

beforeAll(async () => {
  platform = await startUiPlatform();
  browser = await launchChromium();
  org = await makeOrg(platform, ['owner', 'admin']);
  secret = await enableTotp(platform, org.members.owner!.token);
  owner = await openUser(browser, platform.url);
  approver = await openUser(browser, platform.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

afterEach(async () => {
  // The page as each step left it, for reading a failure (artifacts only).
  const step = (expect.getState().currentTestName ?? 'step').replace(/\W+/g, '-').slice(-60);
  await screenshot(owner.page, `after-${step}`, false);
  // No Content-Security-Policy violation and no uncaught error in either browser, whatever the step.
  expect([...owner.problems, ...approver.problems]).toEqual([]);
});

const ownerToken = () => org.members.owner!.token;

/** An approval policy of the project: one approval by an admin for changes to `environment`. */
async function oneApprovalIn(environment: string) {
  const policy = await httpClient(platform.url).post('/api/v2/approval-policies', {
    token: ownerToken(),
    body: {
      project: SLUG,
      name: `${environment} needs one`,
      environments: [environment],
      requiredApprovals: 1,
      eligibleApprovers: { roles: ['admin'] },
    },
  });
  expect(policy.status).toBe(201);
}

async function signIn(user: UiUser, email: string, password: string) {
  await user.page.goto('/login');
  await user.page.getByLabel('Email').fill(email);
  await user.page.getByLabel('Password').fill(password);
  await user.page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the web UI in chromium', () => {
  it('signs in with a password and a TOTP code', async () => {
    await owner.page.goto('/');
    await owner.page.waitForURL('**/login?returnTo=**');
    expect(await checkView(owner, 'sign-in')).toEqual([]);
    await signIn(owner, org.members.owner!.user.email, org.members.owner!.password);
    await owner.page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    expect(await checkView(owner, 'sign-in-mfa')).toEqual([]);
    await awayFromStepEdge();
    await owner.page.getByLabel('6-digit code').fill(totpAt(secret, Math.floor(Date.now() / 30_000)));
    await owner.page.getByRole('button', { name: 'Verify' }).click();
    await owner.page.getByRole('heading', { name: 'Projects' }).waitFor();
    // The access token is in memory only: nothing in storage; a reload signs in again through the refresh cookie.
    expect(await owner.page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
    await owner.page.reload();
    await owner.page.getByRole('heading', { name: 'Projects' }).waitFor();
  });

  it('creates a project and sets it up, showing the validation error where it belongs', async () => {
    const page = owner.page;
    await page.getByLabel('Slug').fill(SLUG);
    await page.getByLabel('Name').fill('Shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Shop' }).waitFor();
    const addEnvironment = page.getByRole('form', { name: 'Add an environment' });
    // What a person types while the views reload after an accepted add is kept: the form empties on acceptance, not
    // after the reload. The project's reads are held until the test lets them go, to keep that window open.
    const projectReads = `**/api/v2/projects/${SLUG}/**`;
    let releaseReads = () => undefined as void;
    const held = new Promise<void>((resolve) => (releaseReads = resolve));
    await page.route(projectReads, async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.fallback();
    });
    // The project picks from the organization's catalogue; a new catalogue entry is an explicit choice of its own.
    const environmentChoice = addEnvironment.getByLabel('Environment', { exact: true });
    const newSlug = addEnvironment.getByLabel('Environment slug');
    await environmentChoice.selectOption({ label: 'New organization environment…' });
    await newSlug.fill('dev');
    const accepted = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith(`/projects/${SLUG}/environments`),
    );
    await addEnvironment.getByRole('button', { name: 'Add' }).click();
    expect((await accepted).status()).toBe(201);
    await eventually(
      async () => (await environmentChoice.inputValue()) === '',
      5_000,
      'the form emptied on acceptance',
    );
    await environmentChoice.selectOption({ label: 'New organization environment…' });
    await newSlug.fill('prod');
    await addEnvironment.getByLabel('Production').check();
    releaseReads();
    await page.getByRole('columnheader', { name: /^dev / }).waitFor();
    await page.unroute(projectReads);
    expect(await newSlug.inputValue()).toBe('prod');
    await addEnvironment.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('columnheader', { name: /^prod / }).waitFor();
    // A slug that is already in the catalogue is refused, not reused, and creates nothing.
    await environmentChoice.selectOption({ label: 'New organization environment…' });
    await newSlug.fill('dev');
    await addEnvironment.getByRole('button', { name: 'Add' }).click();
    await addEnvironment.getByText('an environment with this slug already exists').waitFor();
    const catalogue = await httpClient(platform.url).get<{ items: { slug: string }[] }>('/api/v2/org/environments', {
      token: ownerToken(),
    });
    expect(catalogue.body.items.map((e) => e.slug)).toEqual(['dev', 'prod']);
    // The catalogue's entries are offered by name; the project's own are among them.
    expect(await environmentChoice.locator('option').allTextContents()).toEqual([
      'Choose an environment',
      'dev (dev)',
      'prod (prod, production)',
      'New organization environment…',
    ]);
    const addTenant = page.getByRole('form', { name: 'Add a tenant' });
    await addTenant.getByLabel('Tenant slug').fill('Not A Slug');
    await addTenant.getByRole('button', { name: 'Add' }).click();
    // The server's refusal names the body field: it is shown under that field, which is marked invalid.
    const slugField = addTenant.getByLabel('Tenant slug');
    await addTenant
      .locator('.field', { hasText: 'Tenant slug' })
      .getByText(/slug must be/)
      .waitFor();
    expect(await slugField.getAttribute('aria-invalid')).toBe('true');
    await addTenant.getByLabel('Tenant slug').fill('acme');
    await addTenant.getByLabel('Tenant name').fill('Acme');
    await addTenant.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('rowheader', { name: 'Acme' }).waitFor();
    const addWorkload = page.getByRole('form', { name: 'Add a workload' });
    await addWorkload.getByLabel('Workload name').fill('web');
    await addWorkload.getByLabel('Image repository').fill('registry.example.com/shop/web');
    await addWorkload.getByLabel('Image tag').fill('1.0.0');
    await addWorkload.getByLabel('Container port').fill('8080');
    await addWorkload.getByRole('button', { name: 'Add' }).click();
    await page.locator('[data-cell="acme/web/prod"]').getByText('1.0.0').waitFor();
    expect(await checkView(owner, 'project-matrix')).toEqual([]);
  });

  it('creates a release that a second user approves in another browser; the timeline reaches Healthy live', async () => {
    await oneApprovalIn('dev');
    const page = owner.page;
    await page.goto(`/projects/${SLUG}/releases/new`);
    await page.getByLabel('Environment').selectOption('dev');
    await page.getByLabel('Tenant').selectOption({ label: 'Acme' });
    await page.getByLabel('Title').fill('web 1.1.0');
    await page.getByLabel('New image tag of web').fill('1.1.0');
    // The server's preview of what the release would meet, before it is created.
    const check = page.getByRole('region', { name: /Before you create it/ });
    await check.getByText('The release would wait for approvals: dev needs one').waitFor();
    await check.getByText('0 error(s), 0 warning(s), 0 deprecation(s)').waitFor();
    expect(await checkView(owner, 'release-new')).toEqual([]);
    await page.getByRole('button', { name: 'Create release' }).click();
    await page.waitForURL(/\/releases\/[0-9a-f-]{36}$/);
    await page.getByText('PendingApproval').first().waitFor();
    releaseId = page.url().split('/releases/')[1] ?? '';
    expect(releaseId).toMatch(/^[0-9a-f-]{36}$/);

    // The owner may not approve their own request: the refusal is shown in words.
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('alert').filter({ hasText: 'you cannot approve your own request' }).waitFor();

    await signIn(approver, org.members.admin!.user.email, org.members.admin!.password);
    await approver.page.getByRole('link', { name: 'Approvals' }).click();
    await approver.page.getByRole('link', { name: /web 1\.1\.0/ }).waitFor();
    // The inbox names what the approver decides, current -> proposed, as it does for a promotion.
    const card = approver.page
      .getByRole('listitem')
      .filter({ has: approver.page.getByRole('link', { name: 'web 1.1.0 → acme/dev' }) });
    expect(
      (await card.getByRole('list', { name: 'Versions of web 1.1.0 → acme/dev (now → after)' }).allInnerTexts()).map(
        (t) => t.replace(/\s+/g, ' ').trim(),
      ),
    ).toEqual(['acme / web: 1.0.0 → 1.1.0']);
    expect(await checkView(approver, 'approvals-inbox')).toEqual([]);
    await approver.page.getByRole('link', { name: /web 1\.1\.0/ }).click();
    await approver.page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').first().waitFor();
    expect(await checkView(approver, 'release-pending')).toEqual([]);
    await approver.page.getByRole('button', { name: 'Approve' }).click();

    // The owner's page moves on by itself: committed, then Healthy on the controller's reports.
    const commit = await eventually(
      async () => (await releaseClient(platform).get(ownerToken(), releaseId)).commitSha,
      30_000,
      'the release commit',
    );
    await page.getByText(commit.slice(0, 12)).first().waitFor();
    // The refusal answered the state it was made in: once the release moved on, it is gone.
    await page
      .getByRole('alert')
      .filter({ hasText: 'you cannot approve your own request' })
      .waitFor({ state: 'detached' });
    // Argo CD's on-sync-succeeded (Synced/Progressing at the commit) shows while the release waits for health.
    await releaseClient(platform).reportSync(ownerToken(), releaseId, commit, 'Progressing');
    await page.getByText(/Synced · Progressing/).waitFor();
    await releaseClient(platform).reportSync(ownerToken(), releaseId, commit);
    await page
      .getByRole('heading', { name: /web 1\.1\.0/ })
      .getByText('Healthy')
      .waitFor({ timeout: scaled(5_000) });
    await page.getByRole('list', { name: 'Timeline' }).getByText('healthy').first().waitFor();
    expect(await checkView(owner, 'release-healthy')).toEqual([]);
    // The matrix shows what runs, from the deployments matrix the controller's reports feed.
    await page.goto(`/projects/${SLUG}`);
    await page
      .locator('[data-cell="acme/web/dev"]')
      .getByText(/live 1\.1\.0/)
      .waitFor();
  });

  it('compares two environments with the changed-only filter on by default', async () => {
    const page = owner.page;
    await page.goto(`/projects/${SLUG}/compare?from=dev&to=prod`);
    const item = page.getByRole('article', { name: 'acme / web' });
    await item.getByText('registry.example.com/shop/web:1.1.0', { exact: true }).waitFor();
    expect(await page.getByRole('switch', { name: 'Changed only' }).isChecked()).toBe(true);
    expect(await checkView(owner, 'compare')).toEqual([]);
    // The filters live in the address: chosen, reloaded and opened from a shared link, they stay.
    await page.getByLabel('Tenant').selectOption('acme');
    await page.getByLabel('Difference', { exact: true }).selectOption('image');
    await page.getByRole('switch', { name: 'Changed only' }).click({ force: true });
    await page.waitForURL(/all=1/);
    const link = page.url();
    expect(new URL(link).searchParams.get('type')).toBe('image');
    expect(new URL(link).searchParams.get('all')).toBe('1');
    await page.reload();
    await item.getByText('registry.example.com/shop/web:1.1.0', { exact: true }).waitFor();
    expect(await page.getByLabel('Tenant').inputValue()).toBe('acme');
    expect(await page.getByLabel('Difference', { exact: true }).inputValue()).toBe('image');
    expect(await page.getByRole('switch', { name: 'Changed only' }).isChecked()).toBe(false);
    const shared = await approver.context.newPage();
    await shared.goto(link);
    await shared.getByRole('article', { name: 'acme / web' }).waitFor();
    await shared.getByLabel('Tenant').locator('option[value="acme"]').waitFor({ state: 'attached' });
    expect(await shared.getByLabel('Tenant').inputValue()).toBe('acme');
    expect(await shared.getByRole('switch', { name: 'Changed only' }).isChecked()).toBe(false);
    await shared.close();
  });

  it("keeps the audit filters in the address and names each entry's resource, linked", async () => {
    const page = owner.page;
    await page.goto('/audit');
    await page.getByLabel('Category').selectOption('deployment');
    await page.getByLabel('Event type').fill('release.create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/category=deployment/);
    const table = page.getByRole('table', { name: 'Audit entries' });
    const named = table.getByRole('link', { name: 'web 1.1.0 · acme/dev' });
    // The filter goes to the address first (a router navigation), then the list reloads: wait for the filtered one.
    const onlyCreations = async () =>
      (await table.getByRole('rowheader').allTextContents()).every((action) => action === 'release.create');
    await eventually(onlyCreations, 10_000, 'the filtered list');
    await named.waitFor();
    await page.reload();
    expect(await page.getByLabel('Category').inputValue()).toBe('deployment');
    expect(await page.getByLabel('Event type').inputValue()).toBe('release.create');
    await named.waitFor();
    expect(await onlyCreations()).toBe(true);
    expect(await checkView(owner, 'audit-filtered')).toEqual([]);
    await named.click();
    await page.waitForURL(new RegExp(`/releases/${releaseId}$`));
  });

  it('previews and applies a bulk image update in one commit', async () => {
    const page = owner.page;
    await page.goto(`/projects/${SLUG}/bulk-update`);
    await page.getByLabel('New image tag').fill('2.0.0');
    await page.getByRole('checkbox', { name: 'acme / prod' }).check({ force: true });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: /Preview: [1-9]\d* files change/ }).waitFor();
    expect(await checkView(owner, 'bulk-update-preview')).toEqual([]);
    await page.getByRole('button', { name: 'Apply in one commit' }).click();
    const applied = page.getByRole('status').filter({ hasText: 'Applied' });
    await applied.getByText(/Commit [0-9a-f]{40}/).waitFor();
    expect(await checkView(owner, 'bulk-update-applied')).toEqual([]);
  });

  it('requests a promotion that is blocked on approvals, approved by the second user, and turns Healthy', async () => {
    await oneApprovalIn('prod');
    const http = httpClient(platform.url);
    const page = owner.page;
    await page.goto(`/projects/${SLUG}/promotions`);
    await page.getByLabel('Source').selectOption('dev');
    await page.getByLabel('Target').selectOption('prod');
    await page.getByRole('list', { name: 'What moves' }).getByText('acme / web').waitFor();
    expect(await checkView(owner, 'promotion-request')).toEqual([]);
    await page.getByRole('button', { name: 'Request promotion' }).click();
    const causes = page.getByRole('region', { name: 'Why it is blocked' });
    await causes.getByText('approvals', { exact: true }).waitFor();
    await causes.getByText('Clears as soon as the approvals the policies need arrive.').waitFor();
    expect(await checkView(owner, 'promotion-blocked')).toEqual([]);
    const promotionId = page.url().split('/promotions/')[1] ?? '';
    // The matrix cell of the target shows the promotion in flight.
    await page.goto(`/projects/${SLUG}`);
    await page
      .locator('[data-cell="acme/web/prod"]')
      .getByRole('link', { name: /promotion from dev/ })
      .waitFor();
    expect(await checkView(owner, 'project-matrix-live')).toEqual([]);
    await page.goto(`/promotions/${promotionId}`);

    await approver.page.goto('/approvals');
    await approver.page.getByRole('link', { name: 'Promotion dev → prod' }).click();
    await approver.page.getByRole('button', { name: 'Approve' }).click();

    const promotion = await eventually(
      async () => {
        const res = await http.get<{ commitSha: string | null }>(`/api/v2/promotions/${promotionId}`, {
          token: ownerToken(),
        });
        return res.body.commitSha;
      },
      30_000,
      'the promotion commit',
    );
    await page.getByText(promotion).waitFor();
    const controller = releaseClient(platform).controller;
    const token = await controller.tokenFor(ownerToken());
    const report = await controller.post(token, controller.event(`${SLUG}.acme.prod.web`, promotion));
    expect(report.status).toBe(200);
    await page
      .getByRole('heading', { name: /Promotion dev → prod/ })
      .getByText('Healthy')
      .waitFor({ timeout: scaled(5_000) });
    expect(await checkView(owner, 'promotion-healthy')).toEqual([]);
  });

  it('previews a rollback, confirms it, and lists the pin it leaves', async () => {
    const releases = releaseClient(platform);
    const tenants = await httpClient(platform.url).get<{ items: { id: string }[] }>(
      `/api/v2/projects/${SLUG}/tenants`,
      {
        token: ownerToken(),
      },
    );
    const second = await releases.create(ownerToken(), SLUG, {
      environment: 'dev',
      tenantId: tenants.body.items[0]!.id,
      title: 'web 1.2.0',
      changes: [{ workload: 'web', tag: '1.2.0' }],
    });
    await releases.status(ownerToken(), second.body.id, 'PendingApproval');
    const admin = org.members.admin!.token;
    await releases.http.post(`/api/v2/releases/${second.body.id}/approve`, { token: admin, body: {} });
    const committed = await releases.until(ownerToken(), second.body.id, (r) => r.commitSha !== null);
    await releases.reportSync(ownerToken(), second.body.id, committed.commitSha!);
    await releases.status(ownerToken(), second.body.id, 'Healthy');

    const page = owner.page;
    await page.goto(`/projects/${SLUG}/rollback`);
    await page.getByLabel('Environment', { exact: true }).selectOption('dev');
    await page.getByRole('button', { name: 'Preview rollback' }).click();
    await page.getByText(/Restores web 1\.1\.0/).waitFor();
    // What it waits for is named before confirming: the approval policy of dev, and the versions now -> after.
    await page
      .getByRole('status')
      .getByText(/the rollback waits for the approvals of "dev needs one" \(1\)/)
      .waitFor();
    await page.getByRole('list', { name: 'Versions (now → after the rollback)' }).getByText('1.2.0').waitFor();
    expect(await checkView(owner, 'rollback-preview')).toEqual([]);
    // No rollback without a reason: Confirm waits for one.
    expect(await page.getByRole('button', { name: 'Confirm rollback' }).isDisabled()).toBe(true);
    await page.getByLabel('Reason (required: it is recorded in the audit log)').fill('1.2.0 misbehaves');
    await page.getByRole('button', { name: 'Confirm rollback' }).click();
    await page.getByText('PendingApproval').first().waitFor();
    const rollbackId = page.url().split('/releases/')[1] ?? '';
    await releases.http.post(`/api/v2/releases/${rollbackId}/approve`, { token: admin, body: {} });
    await releases.until(ownerToken(), rollbackId, (r) => r.commitSha !== null);
    await page.goto(`/projects/${SLUG}/rollback`);
    await page.getByRole('button', { name: 'Unpin acme/dev' }).waitFor();
    expect(await checkView(owner, 'rollback-pins')).toEqual([]);
  });

  it('edits and removes what the project is made of, confirming by name; an environment in use is refused', async () => {
    const page = owner.page;
    await page.goto(`/projects/${SLUG}`);
    const tenant = page.getByRole('form', { name: 'Tenant acme' });
    await tenant.getByLabel('Tenant name').fill('Acme Corporation');
    await tenant.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name: 'Acme Corporation' }).waitFor();

    const workload = page.getByRole('form', { name: 'Workload web' });
    await workload.getByLabel('Image tag').fill('not a tag!');
    await workload.getByRole('button', { name: 'Save' }).click();
    const tagField = workload.getByLabel('Image tag');
    await workload
      .locator('.field', { hasText: 'Image tag' })
      .getByText(/image\.tag/)
      .waitFor();
    expect(await tagField.getAttribute('aria-invalid')).toBe('true');

    // dev is pinned by the rollback: its removal is refused with what uses it, in the server's words.
    await page.getByRole('button', { name: 'Remove environment dev' }).click();
    const confirm = page.getByRole('group', { name: 'Remove environment dev' });
    const remove = confirm.getByRole('button', { name: 'Remove dev' });
    expect(await remove.isDisabled()).toBe(true);
    await confirm.getByLabel('Type dev to remove this environment').fill('dev');
    await remove.click();
    await confirm
      .getByRole('alert')
      .getByText(/environment dev is in use by .*pins of acme/)
      .waitFor();
    expect(await checkView(owner, 'project-edit')).toEqual([]);
    await confirm.getByRole('button', { name: 'Keep it' }).click();

    const add = page.getByRole('form', { name: 'Add a workload' });
    await add.getByLabel('Workload name').fill('worker');
    await add.getByLabel('Image repository').fill('registry.example.com/shop/worker');
    await add.getByLabel('Image tag').fill('1.0.0');
    await add.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('button', { name: 'Remove workload worker' }).click();
    await page.getByLabel('Type worker to remove this workload').fill('worker');
    await page.getByRole('button', { name: 'Remove worker' }).click();
    await page.getByRole('form', { name: 'Workload worker' }).waitFor({ state: 'detached' });
  });

  it('lists sessions on the account page', async () => {
    await owner.page.goto('/account');
    await owner.page.getByRole('table', { name: 'Sessions' }).getByText('this session').waitFor();
    expect(await checkView(owner, 'account')).toEqual([]);
  });
});
