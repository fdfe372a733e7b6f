import { scaled } from '../helpers/time-scale';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Browser } from 'playwright-core';
import { createMetrics } from '../../src/http/metrics';
import { locateTemporalCli } from '../../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../../src/embedded/temporal-server';
import { repoRoot } from '../../src/paths';
import { createWorkflowStarter, type WorkflowStarter } from '../../src/temporal/start-workflow';
import type { ReleaseWorkflowInput } from '../../src/releases/release-workflow-contract';
import type { PromotionWorkflowInput } from '../../src/promotions/promotion-workflow-contract';
import { releaseWorkflow } from '../../workflows/release';
import { promotionWorkflow } from '../../workflows/promotion';
import { launchChromium, VIEWPORT } from '../helpers/browser';
import { harnessState } from '../helpers/harness-state';
import { eventually, freePort } from '../helpers/net';

/**
 * The Temporal UI's workflow list as ops use it, in Debian's chromium: a dev server of its own with its UI (the
 * shared one runs headless), workflows started through the platform's one starter (labels: search attributes by
 * slug and id, the summary), and the list filtered by organization and project slug shows those of that project
 * only. No worker runs: they stay Running, as a release waiting on something does. UPDATE_UI_DOCS=1 keeps the
 * screenshot in docs/temporal-ui-workflows.png (docs/workflows.md shows it).
 */
let server: DevServer;
let connection: Connection;
let browser: Browser;
let starter: WorkflowStarter;

const SLUGS: Record<string, string> = { acme: 'acme', shop: 'shop', blog: 'blog', other: 'globex' };

beforeAll(async () => {
  const cli = locateTemporalCli(
    repoRoot(),
    process.env.TEMPORAL_CLI_PATH,
    (process.env.PATH ?? '').split(':'),
    () => undefined,
  );
  server = await startDevServer({
    cliPath: cli,
    port: await freePort(),
    uiPort: await freePort(),
    namespace: 'default',
    dbFile: null,
    logFile: path.join(harnessState().workDir, `temporal-ui-${randomUUID()}.log`),
  });
  connection = await Connection.connect({ address: server.address });
  // The slugs as the owners' repositories would answer them: organization and project ids are the slugs' keys here.
  starter = createWorkflowStarter(new Client({ connection }), 'ui-', createMetrics(), async (org, project) => ({
    organization: SLUGS[org] ?? null,
    project: project === null ? null : (SLUGS[project] ?? null),
  }));
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await connection?.close();
  await server?.stop();
});

/** Starts a release as the release service does (no worker: its input is never read, only its labels show). */
async function release(org: string, project: string, tenant: string, environment: string, title: string) {
  const id = randomUUID();
  await starter.start(releaseWorkflow, {
    workflowId: `release-${id}`,
    args: [{ releaseId: id } as ReleaseWorkflowInput],
    labels: { organizationId: org, projectId: project, tenantId: tenant, tenantSlug: tenant, environment },
    summary: `release ${title}`,
    details: 'Release for the UI test',
  });
  return `release-${id}`;
}

it('lists the workflows of one project by organization and project slug, with their summaries', async () => {
  const shop = [
    await release('acme', 'shop', 'acme', 'dev', 'web 1.1.0'),
    await release('acme', 'shop', 'globex', 'prod', 'web 1.0.9 -> 1.1.0'),
  ];
  const promotion = randomUUID();
  await starter.start(promotionWorkflow, {
    workflowId: `promotion-${promotion}`,
    args: [{ promotionId: promotion } as PromotionWorkflowInput],
    labels: { organizationId: 'acme', projectId: 'shop', environment: 'prod' },
    summary: 'promote dev -> prod',
  });
  shop.push(`promotion-${promotion}`);
  const elsewhere = [
    await release('acme', 'blog', 'acme', 'dev', 'blog 2.0.0'),
    await release('other', 'shop', 'acme', 'dev', 'web 9.9.9'),
  ];

  const page = await browser.newPage({ viewport: VIEWPORT });
  page.setDefaultTimeout(scaled(30_000));
  const query = encodeURIComponent('OrganizationSlug = "acme" AND ProjectSlug = "shop"');
  await page.goto(`${server.uiUrl}/namespaces/default/workflows?query=${query}`);
  for (const id of shop)
    await page
      .getByText(id)
      .first()
      .waitFor({ timeout: scaled(30_000) });
  const text = await page.locator('body').innerText();
  for (const id of elsewhere) expect(text).not.toContain(id);
  const file = path.join(repoRoot(), '.artifacts', 'ui', 'temporal-ui-workflows.png');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  if (process.env.UPDATE_UI_DOCS === '1')
    fs.copyFileSync(file, path.join(repoRoot(), 'docs', 'temporal-ui-workflows.png'));

  // A workflow's page heads with its summary: where and what, by slug.
  await page.goto(`${server.uiUrl}/namespaces/default/workflows/${shop[1]}`);
  await page
    .getByText('User Metadata')
    .first()
    .click({ timeout: scaled(30_000) });
  // The UI renders summary and details as markdown, each in a frame of its own.
  for (const text of ['acme/shop globex/prod: release web 1.0.9 -> 1.1.0', 'Release for the UI test']) {
    await eventually(
      async () => {
        for (const frame of page.frames()) if ((await frame.getByText(text).count()) > 0) return true;
        throw new Error(`not shown yet: ${text}`);
      },
      30_000,
      text,
    );
  }
  await page.screenshot({ path: file.replace('.png', '-release.png') });
  if (process.env.UPDATE_UI_DOCS === '1') {
    fs.copyFileSync(file.replace('.png', '-release.png'), path.join(repoRoot(), 'docs', 'temporal-ui-release.png'));
  }
  await page.close();
}, 120_000);
