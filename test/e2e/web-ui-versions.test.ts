import { scaled } from '../helpers/time-scale';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { makeOrg } from '../helpers/fixtures';
import type { TestPlatform } from '../helpers/test-platform';
import { cliRunner } from '../integration/cli/cli-harness';
import { makeProject } from '../integration/gitops/gitops-harness';
import { promotionClient } from '../integration/promotions/promotion-harness';
import { releaseClient } from '../integration/releases/release-harness';
import { checkView, openUser, signIn, startUiPlatform, type UiUser } from './web-ui-harness';

/**
 * Versions at every decision in Debian's chromium (issue 50): a promotion that would take production from 1.5.0 back
 * to 1.4.0 is flagged a downgrade on its page and in the approver's inbox, with every version now -> after; compare
 * says which side is current and which proposed; the bulk-update preview names the approval policy Apply would meet.
 * Axe on every view.
 */
jest.setTimeout(scaled(120_000));

let platform: TestPlatform;
let browser: Browser;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: UiUser;
let approver: UiUser;
let promotionId = '';
/** Project `hist`: production released 1.1.0 then 1.2.0, rolled back to 1.1.0 ('bad image') after `beforeRollback`. */
let beforeRollback = '';
/** Project `waves`: a rollout of dev's 2.0.0 to prod in two waves (a, then b), its first wave deploying. */
let rolloutId = '';
/** A whole second after production's release and before dev's (the UI's instant field takes seconds). */
let pastInstant = '';
const SLUG = 'shop';

beforeAll(async () => {
  platform = await startUiPlatform();
  browser = await launchChromium();
  org = await makeOrg(platform, ['owner', 'admin']);
  const token = org.members.owner!.token;
  const api = promotionClient(platform);
  const tenants = await makeProject(platform, token, SLUG, ['acme']);
  await api.releaseTo(token, SLUG, 'prod', tenants.acme!, '1.5.0');
  const second = Math.ceil((Date.now() + 1) / 1000) * 1000;
  await new Promise((resolve) => setTimeout(resolve, second + 200 - Date.now()));
  pastInstant = new Date(second).toISOString();
  await api.releaseToDev(token, SLUG, tenants.acme!, '1.4.0');
  await api.prodApprovalPolicy(token, SLUG, 'prod needs an admin');
  const requested = await api.request(token, SLUG, { sourceEnvironment: 'dev', targetEnvironment: 'prod' });
  if (requested.status !== 201) throw new Error(`promotion: ${requested.status} ${requested.text}`);
  promotionId = requested.body.id;
  await api.until(token, promotionId, (p) => (p.causes ?? []).some((c) => c.cause === 'approvals'));
  const hist = await makeProject(platform, token, 'hist', ['acme']);
  await api.releaseTo(token, 'hist', 'prod', hist.acme!, '1.1.0');
  await api.releaseTo(token, 'hist', 'prod', hist.acme!, '1.2.0');
  beforeRollback = new Date().toISOString();
  const rollback = await api.http.post<{ id: string }>(`/api/v2/tenants/${hist.acme!}/envs/prod/rollback`, {
    token,
    body: { reason: 'bad image' },
  });
  if (rollback.status !== 201) throw new Error(`rollback: ${rollback.status} ${rollback.text}`);
  const releases = releaseClient(platform);
  const syncing = await releases.status(token, rollback.body.id, 'Syncing');
  await releases.reportSync(token, rollback.body.id, syncing.commitSha!);
  const waves = await makeProject(platform, token, 'waves', ['a', 'b']);
  for (const tenant of ['a', 'b']) await api.releaseToDev(token, 'waves', waves[tenant]!, '2.0.0');
  const rollout = await api.http.post<{ id: string }>('/api/v2/projects/waves/rollouts', {
    token,
    body: {
      sourceEnvironment: 'dev',
      targetEnvironment: 'prod',
      plan: {
        waves: [
          { name: 'first', tenants: ['a'] },
          { name: 'second', tenants: ['b'] },
        ],
      },
    },
  });
  if (rollout.status !== 201) throw new Error(`rollout: ${rollout.status} ${rollout.text}`);
  rolloutId = rollout.body.id;
  owner = await openUser(browser, platform.url);
  approver = await openUser(browser, platform.url);
  await signIn(owner, org.members.owner!);
  await signIn(approver, org.members.admin!);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

afterEach(() => {
  expect([...owner.problems, ...approver.problems]).toEqual([]);
});

describe('versions at every decision, in the browser', () => {
  it('flags the downgrade on the promotion page, with the versions now -> after', async () => {
    const page = owner.page;
    await page.goto(`/promotions/${promotionId}`);
    await page
      .getByRole('alert')
      .getByText('Downgrade: the target would run an older version (acme/web 1.5.0 → 1.4.0).')
      .waitFor();
    const moves = page.getByRole('list', { name: 'What moves' });
    expect((await moves.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'acme / web: 1.5.0 → 1.4.0 downgrade',
    ]);
    expect(await checkView(owner, 'promotion-downgrade')).toEqual([]);
  });

  it("flags it in the approver's inbox, with the versions", async () => {
    const page = approver.page;
    await page.goto('/approvals');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Promotion dev → prod' }) });
    await card
      .getByRole('alert')
      .getByText(/^Downgrade: .*acme\/web 1\.5\.0 → 1\.4\.0/)
      .waitFor();
    await card
      .getByRole('list', { name: 'Versions of Promotion dev → prod (now → after)' })
      .getByText('acme / web: 1.5.0 → 1.4.0', { exact: false })
      .waitFor();
    expect(await checkView(approver, 'approvals-downgrade')).toEqual([]);
    // `delivery approvals`, the same inbox at a terminal, says it too.
    const cli = cliRunner(platform.url);
    try {
      const inbox = await cli.run(['approvals'], { env: { DELIVERY_TOKEN: org.members.admin!.token } });
      expect([inbox.code, inbox.stderr]).toEqual([0, '']);
      expect(inbox.stdout).toContain('DOWNGRADE dev -> prod: acme/web 1.5.0 -> 1.4.0 (downgrade)');
    } finally {
      cli.close();
    }
  });

  it('labels compare current -> proposed, as the promotion reads', async () => {
    const page = owner.page;
    await page.goto(`/projects/${SLUG}/compare?from=dev&to=prod`);
    await page
      .getByRole('status')
      .getByText(/prod \(current\) → dev \(proposed\)/)
      .waitFor();
    expect(await page.getByLabel('Current (target, runs now)').inputValue()).toBe('prod');
    expect(await page.getByLabel('Proposed (source)').inputValue()).toBe('dev');
    const item = page.getByRole('article', { name: 'acme / web' });
    await item.getByText('(prod, current)', { exact: false }).first().waitFor();
    expect(await checkView(owner, 'compare-direction')).toEqual([]);
  });

  it('names the approval policy in the bulk-update preview and keeps Apply off', async () => {
    const page = owner.page;
    await page.goto(`/projects/${SLUG}/bulk-update`);
    await page.getByLabel('New image tag').fill('2.0.0');
    await page.getByRole('checkbox', { name: 'acme / prod' }).check({ force: true });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Applying is refused by an approval policy' })
      .getByText(/the approval policy "prod needs an admin" covers environment prod \(tenant acme\)/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Apply in one commit' }).isDisabled()).toBe(true);
    expect(await checkView(owner, 'bulk-update-approval-policy')).toEqual([]);
  });

  it('shows the matrix at an instant picked in the time control, and what changed since (issue 47)', async () => {
    const page = owner.page;
    await page.goto(`/projects/${SLUG}`);
    await page.getByRole('group', { name: 'Now' }).waitFor();
    // The pipeline picture above the matrix: dev then prod, pointing at a card lights its version's path.
    const picture = page.getByRole('figure', { name: 'Pipeline of web' });
    await expect(picture.getByRole('heading').allTextContents()).resolves.toEqual(['dev', 'prod']);
    await picture.locator('li[data-card="acme/dev"]').hover();
    await picture.locator('li.same-version[data-card="acme/dev"]').waitFor();
    expect(await checkView(owner, 'pipeline')).toEqual([]);
    await page.mouse.move(0, 0);
    const devCell = page.locator('td[data-cell="acme/web/dev"] > code');
    await expect(devCell.textContent()).resolves.toBe('1.4.0');
    await page.getByLabel('Instant (UTC)').fill(pastInstant.slice(0, 19));
    await page
      .getByRole('group', { name: `As it was at ${pastInstant.slice(0, 10)} ${pastInstant.slice(11, 19)} UTC` })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('at')).toBe(pastInstant);
    // Dev's release came after the instant: nothing was committed there yet; production ran 1.5.0. (Wait for the
    // instant's matrix by production's version: while it loads, every cell reads "-", dev's included.)
    await page.locator('td[data-cell="acme/web/prod"] > code', { hasText: '1.5.0' }).waitFor();
    await expect(devCell.textContent()).resolves.toBe('-');
    expect(await checkView(owner, 'history-matrix-at')).toEqual([]);

    await page.getByRole('link', { name: 'Changes since then' }).click();
    const row = page.getByRole('row').filter({ hasText: 'acme/dev/web' }).filter({ hasText: 'release' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(org.members.owner!.user.email);
    expect(await row.textContent()).toContain('→ 1.4.0');
    expect(await checkView(owner, 'history-changes')).toEqual([]);

    // Another project's rollback, in the changes view: who rolled back, to what, and why.
    await page.goto(`/projects/hist/changes?from=${encodeURIComponent(beforeRollback)}`);
    const rolledBack = page.getByRole('row').filter({ hasText: 'acme/prod/web' }).filter({ hasText: 'rollback' });
    await rolledBack.waitFor();
    await expect(rolledBack.textContent()).resolves.toContain('1.2.0 → 1.1.0');
    expect(await rolledBack.textContent()).toContain(org.members.owner!.user.email);
    expect(await rolledBack.textContent()).toMatch(/: bad image/);
    expect(await checkView(owner, 'history-rollback')).toEqual([]);

    // The metrics of the same history: a row per environment (dev's release and production's, each deployed once).
    await page.goto(`/projects/${SLUG}/metrics`);
    const metrics = page.getByRole('table', { name: 'Delivery metrics' });
    await metrics.getByRole('row', { name: /^dev / }).waitFor();
    await metrics.getByRole('row', { name: /^prod / }).waitFor();
    expect(await checkView(owner, 'history-metrics')).toEqual([]);
  });

  it("lists the project rollouts and shows one rollout's waves; its actions wait for a reason (issue 48)", async () => {
    const page = owner.page;
    await page.goto('/projects/waves/rollouts');
    await page
      .getByRole('table', { name: 'Rollouts' })
      .getByRole('link', { name: /dev → prod: / })
      .click();
    await page.waitForURL(new RegExp(`/rollouts/${rolloutId}$`));
    const waves = page.getByRole('list', { name: 'Waves' });
    // Wave 1 (tenant a) is deploying: its promotion committed, no controller has reported; wave 2 waits.
    await waves.locator('li[data-wave="first"]', { hasText: 'Deploying' }).waitFor();
    await expect(waves.locator('li[data-wave="first"]').textContent()).resolves.toContain('a (tenants a)');
    await expect(waves.locator('li[data-wave="second"]').textContent()).resolves.toContain('Pending');
    await expect(page.getByRole('button', { name: 'Pause' }).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Reason (kept in the audit log)').fill('looking first');
    await expect(page.getByRole('button', { name: 'Pause' }).isDisabled()).resolves.toBe(false);
    expect(await checkView(owner, 'rollout')).toEqual([]);
  });
});
