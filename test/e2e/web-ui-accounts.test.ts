import { scaled } from '../helpers/time-scale';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/browser';
import { makeOrg } from '../helpers/fixtures';
import { httpClient } from '../helpers/http-client';
import { providerEnv, startOAuthProvider, type FakeOAuthProvider } from '../helpers/oauth-providers';
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from '../helpers/smtp-capture';
import type { TestPlatform } from '../helpers/test-platform';
import { checkView, openUser, startUiPlatform, type UiUser } from './web-ui-harness';

/**
 * The account views end to end in Debian's chromium against the real platform: registration, the mailed links
 * (verify email, reset password) read from a real SMTP listener, an invitation accepted from its mailed link that
 * switches the user to the inviting organization, and OAuth sign-in against a real local HTTP provider. Every view is
 * screenshotted and checked with axe.
 */
jest.setTimeout(scaled(120_000));

let platform: TestPlatform;
let browser: Browser;
let smtp: SmtpCapture;
let google: FakeOAuthProvider;
let org: Awaited<ReturnType<typeof makeOrg>>;
let user: UiUser;
const email = 'new.user@example.test';
let password = 'correct horse battery staple';

beforeAll(async () => {
  smtp = await startSmtpCapture();
  google = await startOAuthProvider('oidc', 'google-client');
  platform = await startUiPlatform({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Platform <no-reply@example.test>',
    REGISTRATION_OPEN: 'true',
    ...providerEnv('google', google),
  });
  browser = await launchChromium();
  org = await makeOrg(platform, ['owner']);
  user = await openUser(browser, platform.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await smtp?.close();
  await google?.close();
});

afterEach(async () => {
  const step = (expect.getState().currentTestName ?? 'step').replace(/\W+/g, '-').slice(-60);
  await screenshot(user.page, `after-${step}`, false);
  expect(user.problems).toEqual([]);
});

/** The path and query of the link to this platform in a mail (the browser opens it like a reader would). */
function linkIn(mail: CapturedMail, path: string): string {
  const url = new RegExp(`https?://[^\\s]+${path}[^\\s]*`).exec(mail.text)?.[0];
  if (!url) throw new Error(`no ${path} link in mail "${mail.subject}"`);
  const parsed = new URL(url);
  expect(parsed.origin).toBe(platform.url);
  return parsed.pathname + parsed.search;
}

async function signIn(secret: string) {
  await user.page.goto('/login');
  await user.page.getByLabel('Email').fill(email);
  await user.page.getByLabel('Password').fill(secret);
  await user.page.getByRole('button', { name: 'Sign in' }).click();
}

describe('account views in chromium', () => {
  it('registers, opens the mailed verification link and signs in', async () => {
    const page = user.page;
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('New User');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password (8 characters or more)').fill(password);
    expect(await checkView(user, 'register')).toEqual([]);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').getByText('Check your email for the link that verifies your address.').waitFor();
    // Where the message went when no mail arrives (a platform without SMTP spools it).
    await page
      .getByRole('status')
      .getByText(/No message\? A platform without a mail server/)
      .waitFor();

    await page.goto(linkIn(await smtp.waitFor(email, /confirm your email/i), '/verify-email'));
    expect(await checkView(user, 'verify-email')).toEqual([]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('status').getByText('Your address is verified.').waitFor();

    // A new account belongs to no organization yet: the page offers to create one or to be invited, and asks nothing
    // of the organization-scoped API (no polling that can only answer 400).
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Create your organization' }).waitFor();
    await page.getByText(`invite ${email}`).waitFor();
    expect(await checkView(user, 'no-organization')).toEqual([]);
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: /Notifications/ }).count()).toBe(0);
    expect(refused).toEqual([]);
  });

  it('resets a forgotten password through the mailed link, then creates an organization and its first project', async () => {
    const page = user.page;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The sign-in view has an Email field too: fill the reset view's, once it is the one shown.
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    expect(await checkView(user, 'forgot-password')).toEqual([]);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page
      .getByRole('status')
      .getByText(/reset link is on its way/)
      .waitFor();

    await page.goto(linkIn(await smtp.waitFor(email, /reset your password/i), '/reset-password'));
    password = 'a brand new passphrase';
    await page.getByLabel('New password', { exact: true }).fill(password);
    expect(await checkView(user, 'reset-password')).toEqual([]);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page
      .getByRole('status')
      .getByText(/Your password is changed/)
      .waitFor();

    await signIn('correct horse battery staple');
    await page.getByRole('alert').waitFor();
    await signIn(password);
    // Creating an organization from the empty state makes the person its owner and opens it.
    await page.getByRole('heading', { name: 'Create your organization' }).waitFor();
    await page.getByLabel('Organization slug').fill('new-users-org');
    await page.getByLabel('Organization name').fill('New User Org');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await page.getByLabel('Organization').locator('option:checked').textContent()).toBe('New User Org');
    // The sign-up journey ends in a usable organization: the empty projects view says what to do next, and the first
    // project opens, ready for its environments.
    await page.getByText('No projects yet: create the first one below.').waitFor();
    const create = page.getByRole('form', { name: 'New project' });
    await create.getByLabel('Slug').fill('first-shop');
    await create.getByLabel('Name').fill('First shop');
    await create.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/projects\/first-shop$/);
    await page.getByRole('heading', { name: 'First shop' }).waitFor();
    await page.getByRole('form', { name: 'Add an environment' }).waitFor();
    expect(await checkView(user, 'first-project')).toEqual([]);
    await page.goto('/');
    await page.getByRole('link', { name: 'First shop' }).waitFor();
    expect(await page.getByText('No projects yet').count()).toBe(0);
  });

  it('accepts a mailed invitation and switches to the inviting organization', async () => {
    const invited = await httpClient(platform.url).post(`/api/v1/organizations/${org.org.slug}/invitations`, {
      token: org.members.owner!.token,
      body: { email, role: 'member' },
    });
    expect(invited.status).toBe(201);
    const page = user.page;
    await page.goto(linkIn(await smtp.waitFor(email, /you are invited/i), '/invitations/'));
    await page.getByText(/You are invited to join/).waitFor();
    expect(await checkView(user, 'invitation')).toEqual([]);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    const switcher = page.getByLabel('Organization');
    expect(await switcher.locator('option:checked').textContent()).toBe(org.org.name);
  });

  it('signs in with OAuth through a real provider on a local port', async () => {
    const other = await openUser(browser, platform.url);
    try {
      google.user = { subject: 'sub-ui-1', email: 'oauth.user@example.test', emailVerified: true, name: 'OAuth User' };
      await other.page.goto('/login');
      expect(await checkView(other, 'sign-in-oauth')).toEqual([]);
      await other.page.getByRole('link', { name: 'Continue with Google' }).click();
      // The provider's authorize endpoint answers the browser with the platform's callback; the callback sets the
      // refresh cookie and brings the browser back into the app.
      await other.page.locator('.who', { hasText: 'oauth.user@example.test' }).waitFor();
      expect(google.authorizeRequests).toHaveLength(1);
      expect(google.tokenRequests).toBe(1);
      expect(await other.page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
      expect(other.problems).toEqual([]);
    } finally {
      await other.context.close();
    }
  });
});
