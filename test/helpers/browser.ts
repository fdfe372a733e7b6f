import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '../../src/paths';

/**
 * Debian's chromium headless shell, launched by path (scripts/ensure-test-tools.sh installs it); no browser download.
 * It is the engine Playwright launches for headless runs by default (Chromium's "old headless", the same Blink and V8
 * without the browser's UI layers): a browser test file used 8.2 CPU-s of browser processes with it against 12.6 with
 * the full browser (`test/e2e/web-ui-versions.test.ts`, process accounting, 2 runs each; docs/CONTRIBUTING-SPINE.md).
 * `CHROMIUM_PATH=/usr/bin/chromium` runs the tests in the full browser.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/** Headless chromium with a fresh profile (playwright makes a new user-data-dir per launch and removes it). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const VIEWPORT = { width: 1400, height: 900 };

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Serious and critical axe violations of the page as it is now. axe-core is evaluated through the DevTools protocol,
 * which the page's Content-Security-Policy does not govern (a script tag would be refused, as it should be).
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof window.axe');
  if (loaded === 'undefined') await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    'window.axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))',
  )) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Where screenshots go: a git-ignored artifacts folder; UPDATE_UI_DOCS=1 also writes the ones docs/ui.md shows. */
export const ARTIFACTS_DIR = path.join(repoRoot(), '.artifacts', 'ui');

export async function screenshot(page: Page, name: string, forDocs = true): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  if (forDocs && process.env.UPDATE_UI_DOCS === '1') {
    const docs = path.join(repoRoot(), 'docs', 'ui');
    fs.mkdirSync(docs, { recursive: true });
    fs.copyFileSync(file, path.join(docs, `${name}.png`));
  }
  return file;
}
