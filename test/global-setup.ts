import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/knex';
import { migrateLatest } from '../src/db/migrate';
import { startEmbeddedPostgres } from '../src/embedded/postgres';
import { locateTemporalCli } from '../src/embedded/temporal-cli';
import { startDevServer } from '../src/embedded/temporal-server';
import { createLogger } from '../src/logging/logger';
import { repoRoot } from '../src/paths';
import { freePort } from './helpers/net';
import { PORT_LEDGER_ENV } from '../src/net/free-port';
import { outerHarnessState, saveHarnessState, WORKFLOWS_BUNDLE_ENV } from './helpers/harness-state';
import { bundleToFile } from './helpers/time-skipping';
import { installOras } from './integration/registry/oci-clients';
import { ensureTestTools, ensureWebBuild, WITHOUT_WEB_BUILD } from './helpers/web-build';
import { compileForRun } from './helpers/built-dist';

/**
 * Starts what every integration test shares: PostgreSQL (DATABASE_URL if set, else embedded), a migrated template
 * database that each test file copies, an in-memory Temporal dev server, and one pre-built workflow bundle.
 */
export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const log = createLogger('warn');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-test-'));
  fs.chmodSync(workDir, 0o755);
  // The ports handed out in this run (src/net/free-port.ts), shared by its workers and the processes they start; a
  // run inside a test of this run (the scaffold test) keeps the outer run's.
  if (!process.env[PORT_LEDGER_ENV]) {
    process.env[PORT_LEDGER_ENV] = path.join(workDir, 'ports');
    fs.mkdirSync(process.env[PORT_LEDGER_ENV]);
  }
  // Installed once here, before any test worker starts, while the servers start (a fresh machine downloads packages
  // meanwhile): the current web app in dist/web (unless the run serves no web app: WITHOUT_WEB_BUILD, the scaffold
  // test's copy), Debian's chromium, skopeo and the other tools (apt-get when missing), `oras` in .venv-test.
  const tools = Promise.all([
    process.env[WITHOUT_WEB_BUILD] === '1' ? null : ensureWebBuild(),
    ensureTestTools(),
    installOras(),
  ]);
  // dist/ for the API and worker processes tests start (test/helpers/built-dist.ts): about a second of esbuild.
  compileForRun();
  // Awaited below; a failure of the servers' start first must not leave its rejection unhandled.
  tools.catch(() => undefined);
  // A run inside a test of this run (test/tooling/domain-scaffold.test.ts runs jest in a scaffolded copy) shares the
  // outer run's PostgreSQL and Temporal servers, as the outer run's files do: its files still get their own databases
  // (from its own template), task queues and folders, and its teardown stops only what it started.
  const outer = outerHarnessState();
  let adminUrl = process.env.DATABASE_URL ?? outer?.adminUrl;
  let pgPid: number | null = null;
  if (!adminUrl) {
    // Throwaway databases: no durability (no fsync, no full-page writes), so creating and dropping one per test file
    // costs no disk flush.
    const embedded = await startEmbeddedPostgres(workDir, await freePort(), log, {
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
    });
    adminUrl = embedded.url;
    const pidFile = path.join(workDir, 'postgres', 'postmaster.pid');
    pgPid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  }
  const template = `platform_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  const templateUrl = withDatabase(adminUrl, template);
  const db = createDb(templateUrl, 1);
  await migrateLatest(db);
  await db.destroy();

  const temporal = outer ? { address: outer.temporalAddress, pid: null } : await startTemporal(workDir, log);
  const bundlePath = path.join(workDir, 'workflow-bundle.js');
  // A full run set up the workflows tier first (test/workflows-setup.ts), which bundled the same code: a copy of it
  // saves the bundling's CPU-seconds (this folder's copy outlives the workflows tier's teardown).
  const bundled = process.env[WORKFLOWS_BUNDLE_ENV];
  if (bundled && fs.existsSync(bundled)) fs.copyFileSync(bundled, bundlePath);
  else await bundleToFile(require.resolve('../workflows'), bundlePath);

  await tools;

  saveHarnessState({
    workDir,
    adminUrl,
    templateDb: template,
    temporalAddress: temporal.address,
    temporalPid: temporal.pid,
    postgresPid: pgPid,
    bundlePath,
  });
  process.stdout.write(`\ntest harness ready in ${Date.now() - started} ms (temporal ${temporal.address})\n`);
}

/** An in-memory Temporal dev server of this run: its address and process id. */
async function startTemporal(workDir: string, log: ReturnType<typeof createLogger>) {
  const { temporal: temporalConfig } = loadConfig(process.env);
  const cliPath = locateTemporalCli(repoRoot(), temporalConfig.cliPath, temporalConfig.cliSearchPath, (m) =>
    log.info(m),
  );
  const server = await startDevServer({
    cliPath,
    port: await freePort(),
    uiPort: null,
    namespace: 'default',
    dbFile: null,
    logFile: path.join(workDir, 'temporal.log'),
  });
  return { address: server.address, pid: server.process.pid ?? null };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
