import { scaled } from '../helpers/time-scale';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousAxeViolations, screenshot, VIEWPORT, type AxeViolation } from '../helpers/browser';
import { httpClient } from '../helpers/http-client';
import { freePort } from '../helpers/net';
import { startTestPlatform, type TestPlatform } from '../helpers/test-platform';
import { totpAt } from '../integration/identity/identity-harness';

/**
 * The real platform on a port known in advance, so PUBLIC_URL is the address the browser uses and the refresh
 * cookie's origin check passes exactly as in production. `env` adds settings (SMTP, OAuth providers).
 */
export async function startUiPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  const port = await freePort();
  return startTestPlatform({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env } });
}

/** Turns TOTP on for the user of `token` (setup, then enable with the previous step's code); returns the secret. */
export async function enableTotp(platform: TestPlatform, token: string): Promise<string> {
  const http = httpClient(platform.url);
  const setup = await http.post<{ secret: string }>('/api/v1/auth/mfa/totp/setup', { token });
  if (setup.status !== 200) throw new Error(`totp setup: ${setup.status} ${setup.text}`);
  const step = Math.floor(Date.now() / 30_000) - 1;
  const enabled = await http.post('/api/v1/auth/mfa/totp/enable', {
    token,
    body: { code: totpAt(setup.body.secret, step) },
  });
  if (enabled.status !== 200) throw new Error(`totp enable: ${enabled.status} ${enabled.text}`);
  return setup.body.secret;
}

export interface UiUser {
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy reports and uncaught page errors seen so far. */
  problems: string[];
}

/** A browser context of its own (cookies included) at 1400x900, collecting CSP violations and page errors. */
export async function openUser(browser: Browser, baseURL: string): Promise<UiUser> {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORT });
  context.setDefaultTimeout(scaled(30_000));
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  return { context, page, problems };
}

/** Each view: its screenshot as an artifact, and no serious or critical axe violation. */
export async function checkView(user: UiUser, name: string): Promise<AxeViolation[]> {
  await user.page.waitForLoadState('networkidle');
  await screenshot(user.page, name);
  return seriousAxeViolations(user.page);
}

/** Signs `member` in through the login form and waits for the projects view. */
export async function signIn(user: UiUser, member: { user: { email: string }; password: string }): Promise<void> {
  const page = user.page;
  await page.goto('/login');
  await page.getByLabel('Email').fill(member.user.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}
