import { scaled } from '../helpers/time-scale';
import type { Browser, Locator } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/browser';
import { makeOrg } from '../helpers/fixtures';
import type { TestPlatform } from '../helpers/test-platform';
import { makeProject } from '../integration/gitops/gitops-harness';
import { checkView, openUser, signIn, startUiPlatform, type UiUser } from './web-ui-harness';

/**
 * The governance forms (issue 33) in Debian's chromium against the real platform: create, edit and delete a manifest
 * policy, an approval policy, an escalation policy and a break-glass role, with field errors shown under their fields
 * and a typed-name confirmation on delete; and the audit log's hash-chain status. Axe on every view.
 */
jest.setTimeout(scaled(180_000));

let platform: TestPlatform;
let browser: Browser;
let org: Awaited<ReturnType<typeof makeOrg>>;
let owner: UiUser;
const SLUG = 'forms';

beforeAll(async () => {
  platform = await startUiPlatform();
  browser = await launchChromium();
  org = await makeOrg(platform, ['owner'], 'enterprise');
  await makeProject(platform, org.members.owner!.token, SLUG, ['acme']);
  owner = await openUser(browser, platform.url);
  await signIn(owner, org.members.owner!);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

afterEach(async () => {
  const step = (expect.getState().currentTestName ?? 'step').replace(/\W+/g, '-').slice(-60);
  await screenshot(owner.page, `forms-after-${step}`, false);
  expect(owner.problems).toEqual([]);
});

/** The error shown under a form's field (react-aria's FieldError or the form's own note under a select). */
const errorUnder = (form: Locator, text: string) => form.getByText(text, { exact: true });

/** Deletes a row by typing its name back: the confirm button stays disabled until the name is typed. */
async function deleteByName(scope: Locator, name: string) {
  await scope.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
  const confirm = scope.getByRole('button', { name: `Delete ${name}`, exact: true });
  expect(await confirm.isDisabled()).toBe(true);
  await scope.getByLabel(`Type ${name} to delete it`).fill(name);
  await confirm.click();
}

describe('governance create, edit and delete forms in chromium', () => {
  it('creates, edits and deletes a manifest policy and an approval policy', async () => {
    const page = owner.page;
    await page.goto('/governance');
    await page.getByLabel('Project', { exact: true }).selectOption(SLUG);
    const section = page.getByRole('region', { name: 'Policies' });

    await section.getByRole('button', { name: 'New policy' }).click();
    let form = section.getByRole('form', { name: 'New policy' });
    await form.getByRole('button', { name: 'Create policy' }).click();
    await errorUnder(form, 'Name is required').waitFor();
    await form.getByLabel('Name').fill('pinned-images');
    await form.getByLabel('Mode').selectOption({ label: 'Enforce' });
    await form.getByLabel('Rule', { exact: true }).selectOption({ label: 'Required labels' });
    await form.getByRole('button', { name: 'Create policy' }).click();
    // The server refuses a required-labels rule without labels: its refusal sits under the rule values field.
    await form.locator('.field-error, .react-aria-FieldError').first().waitFor();
    expect(await form.getByLabel(/^Rule values/).getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel(/^Rule values/).fill('app team');
    await form.getByRole('button', { name: 'Create policy' }).click();
    const policies = section.getByRole('table', { name: 'Policies' });
    await policies.getByRole('row', { name: /pinned-images enforce required-labels yes/ }).waitFor();
    expect(await checkView(owner, 'governance-forms-policy')).toEqual([]);

    await policies.getByRole('button', { name: 'Edit pinned-images' }).click();
    form = section.getByRole('form', { name: 'Edit policy pinned-images' });
    expect(await form.getByLabel(/^Rule values/).inputValue()).toBe('app team');
    await form.getByLabel('Name').fill('no-latest');
    await form.getByLabel('Mode').selectOption({ label: 'Audit' });
    await form.getByLabel('Rule', { exact: true }).selectOption({ label: 'No latest tag' });
    await form.getByRole('button', { name: 'Save changes' }).click();
    await policies.getByRole('row', { name: /no-latest audit no-latest-tag yes/ }).waitFor();
    await deleteByName(section, 'no-latest');
    await section.getByText('No policy in this project.').waitFor();

    await section.getByRole('button', { name: 'New approval policy' }).click();
    form = section.getByRole('form', { name: 'New approval policy' });
    await form.getByLabel('Name').fill('prod-gate');
    await form.getByLabel('Environments (slugs; empty: all)').fill('prod');
    await form.getByLabel('Required approvals').fill('11');
    await form.getByLabel(/^Approver roles/).fill('admin boss');
    await form.getByRole('button', { name: 'Create approval policy' }).click();
    await errorUnder(form, 'Required approvals must be at most 10').waitFor();
    await errorUnder(form, 'Roles are owner, admin or member').waitFor();
    await form.getByLabel('Required approvals').fill('2');
    await form.getByLabel(/^Approver roles/).fill('admin owner');
    await form.getByRole('button', { name: 'Create approval policy' }).click();
    const approvals = section.getByRole('table', { name: 'Approval policies' });
    await approvals.getByRole('row', { name: /prod-gate prod 2 admin, owner yes/ }).waitFor();
    expect(await checkView(owner, 'governance-forms-approval')).toEqual([]);

    await approvals.getByRole('button', { name: 'Edit prod-gate' }).click();
    form = section.getByRole('form', { name: 'Edit approval policy prod-gate' });
    expect(await form.getByLabel('Required approvals').inputValue()).toBe('2');
    await form.getByLabel('Required approvals').fill('1');
    await form.getByLabel('Enabled').uncheck();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await approvals.getByRole('row', { name: /prod-gate prod 1 admin, owner no/ }).waitFor();
    await deleteByName(section, 'prod-gate');
    await section.getByText('No approval policy in this project.').waitFor();
  });

  it('adds and removes a break-glass role, and keeps the owner', async () => {
    const page = owner.page;
    await page.goto('/governance');
    const section = page.getByRole('region', { name: 'Roles that may open a session' });
    const roles = section.getByRole('table', { name: 'Break-glass roles' });
    await roles.getByRole('rowheader', { name: 'Admin' }).waitFor();
    await section.getByRole('button', { name: 'New break-glass role' }).click();
    const form = section.getByRole('form', { name: 'New break-glass role' });
    await form.getByLabel('Role').selectOption({ label: 'Admin' });
    await form.getByRole('button', { name: 'Create break-glass role' }).click();
    await errorUnder(form, 'admin may already open a session').waitFor();
    await form.getByLabel('Role').selectOption({ label: 'Member' });
    await form.getByRole('button', { name: 'Create break-glass role' }).click();
    await roles.getByRole('rowheader', { name: 'Member' }).waitFor();
    expect(await checkView(owner, 'governance-forms-break-glass')).toEqual([]);
    await deleteByName(section, 'member');
    await roles.getByRole('rowheader', { name: 'Member' }).waitFor({ state: 'detached' });
    // The owner always may: the server refuses to remove it, and says so.
    await deleteByName(section, 'owner');
    await section.getByRole('alert').filter({ hasText: 'allowedRoles must include owner' }).waitFor();
    await roles.getByRole('rowheader', { name: 'Owner' }).waitFor();
  });

  it('creates, edits and deletes an escalation policy', async () => {
    const page = owner.page;
    await page.goto('/notifications');
    const section = page.getByRole('region', { name: 'Escalation policies and incidents' });
    await section.getByRole('button', { name: 'New escalation policy' }).click();
    let form = section.getByRole('form', { name: 'New escalation policy' });
    await form.getByLabel('Name').fill('db-down');
    await form.getByLabel('Trigger events').fill('Deployment Failed');
    await form.getByLabel('First tier: notify a').selectOption({ label: 'User' });
    await form.getByLabel('First tier: its id').fill('nobody');
    await form.getByLabel('Minutes before the next tier').fill('5');
    await form.getByRole('button', { name: 'Create escalation policy' }).click();
    await errorUnder(form, 'Events look like release.failed').waitFor();
    await errorUnder(form, 'The id is a UUID').waitFor();
    // Refusals only the server can make (an event it does not know, an id of no member) also sit under their fields.
    await form.getByLabel('Trigger events').fill('release.exploded');
    await form.getByLabel('First tier: its id').fill(org.members.owner!.user.id);
    await form.getByRole('button', { name: 'Create escalation policy' }).click();
    await errorUnder(form, 'unknown event or group: release.exploded').waitFor();
    expect(await form.getByLabel('Trigger events').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Trigger events').fill('release.failed');
    await form.getByLabel('First tier: its id').fill('00000000-0000-4000-8000-000000000000');
    await form.getByRole('button', { name: 'Create escalation policy' }).click();
    await errorUnder(form, 'escalation target not found: user 00000000-0000-4000-8000-000000000000').waitFor();
    expect(await form.getByLabel('First tier: its id').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('First tier: its id').fill(org.members.owner!.user.id);
    await form.getByRole('button', { name: 'Create escalation policy' }).click();
    // The server stores an event's canonical name (release.failed is release.fail).
    const table = section.getByRole('table', { name: 'Escalation policies' });
    await table.getByRole('row', { name: /db-down release\.fail 1 5 min/ }).waitFor();
    expect(await checkView(owner, 'notifications-forms-escalation')).toEqual([]);

    await table.getByRole('button', { name: 'Edit db-down' }).click();
    form = section.getByRole('form', { name: 'Edit escalation policy db-down' });
    expect(await form.getByLabel('First tier: its id').inputValue()).toBe(org.members.owner!.user.id);
    await form.getByLabel('Minutes before the next tier').fill('10');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await table.getByRole('row', { name: /db-down release\.fail 1 10 min/ }).waitFor();
    await deleteByName(section, 'db-down');
    await section.getByText('No escalation policy.').waitFor();
  });

  it('shows the audit hash chain intact, covering the changes above', async () => {
    const page = owner.page;
    await page.goto('/audit');
    const chain = page.getByRole('region', { name: 'Chain status' });
    await chain.getByRole('button', { name: 'Verify hash chain' }).click();
    const status = chain.getByRole('status');
    await status.filter({ hasText: /^Chain intact: \d+ entries verified$/ }).waitFor();
    const checked = Number(/(\d+) entries/.exec((await status.textContent()) ?? '')?.[1]);
    const rows = await platform.services.db('audit_log').where({ chain: org.org.id }).count('* as c').first();
    expect(checked).toBe(Number((rows as { c: string }).c));
    expect(await checkView(owner, 'audit-chain-status')).toEqual([]);
  });
});
