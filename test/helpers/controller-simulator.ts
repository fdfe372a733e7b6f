import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { renderDigest } from '../../src/gitops/commit-path';

const run = promisify(execFile);

/** What a simulated sync ends in: Healthy, or a degraded workload / failed sync for the Application. */
export type SimulatedOutcome = 'Healthy' | 'Degraded' | 'SyncFailed';

export interface SentReport {
  application: string;
  revision: string;
  syncStatus: string;
  healthStatus: string;
  timestamp: string;
  status: number;
  /** Sent again by resendUnanswered. */
  resent?: boolean;
}

export interface ControllerSimulatorOptions {
  /** The project's clone URL with a read key as the Basic password (`/git/r/<org>/<project>.git`). */
  cloneUrl: string;
  /** The platform's base URL, where the controller webhook listens. */
  baseUrl: string;
  /** The organization's controller token (`cdc_...`). */
  controllerToken: string;
  /** How the sync of an Application ends (default Healthy). */
  outcome?: (application: string, revision: string) => SimulatedOutcome;
}

async function git(args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** Argo CD's notification timestamp: `{{(call .time.Now).UTC.Format "2006-01-02T15:04:05Z"}}`, whole seconds. */
export function wholeSecond(at = new Date()): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}

/**
 * A continuous-delivery controller as Argo CD behaves with the notification triggers docs/webhooks.md ships: it
 * clones the project's repository over /git/r with a read key, reads each generated Application (its name and source
 * path), computes the rendered content of that path, and syncs only the Applications whose content changed since the
 * previous look. A sync sends what the triggers send once per synced revision: `Synced/Progressing` when the sync
 * operation succeeds (on-sync-succeeded), then `Synced/Healthy` when the workload is up (on-deployed), both stamped to
 * the same whole second; or `Synced/Degraded` (on-health-degraded), or `Error` (on-sync-failed). An unchanged
 * Application sends nothing, whatever the new revision: the stock triggers fire once per sync result revision.
 */
export function controllerSimulator(opts: ControllerSimulatorOptions) {
  let dir: string | null = null;
  const synced = new Map<string, string>();
  const sent: SentReport[] = [];

  async function checkout(): Promise<string> {
    if (!dir) {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'controller-sim-'));
      await git(['clone', '--quiet', opts.cloneUrl, dir]);
    } else {
      await git(['fetch', '--quiet', 'origin'], dir);
      await git(['reset', '--quiet', '--hard', 'origin/main'], dir);
    }
    return (await git(['rev-parse', 'HEAD'], dir)).trim();
  }

  /** Each Application of the checkout: its name and the rendered-content digest of its source path. */
  async function applications(root: string): Promise<Map<string, string>> {
    const files = (await git(['ls-files', '-z'], root)).split('\0').filter(Boolean);
    const apps = new Map<string, string>();
    for (const file of files.filter((f) => /^applications\/.+\.yaml$/.test(f))) {
      const doc = parse(await fs.readFile(path.join(root, file), 'utf8')) as {
        metadata?: { name?: string };
        spec?: { source?: { path?: string } };
      };
      const name = doc.metadata?.name;
      const source = doc.spec?.source?.path;
      if (!name || !source) continue;
      const content = new Map<string, string>();
      for (const f of files.filter((f) => f.startsWith(`${source}/`))) {
        content.set(f, await fs.readFile(path.join(root, f), 'utf8'));
      }
      apps.set(name, renderDigest(content));
    }
    return apps;
  }

  async function post(application: string, revision: string, syncStatus: string, healthStatus: string, at: string) {
    const body = {
      app: {
        metadata: { name: application, namespace: 'argocd' },
        status: { sync: { status: syncStatus, revision }, health: { status: healthStatus } },
      },
      timestamp: at,
    };
    const res = await fetch(`${opts.baseUrl}/api/v1/webhooks/cdcontroller`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${opts.controllerToken}` },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    const report = { application, revision, syncStatus, healthStatus, timestamp: at, status: res.status };
    sent.push(report);
    return report;
  }

  return {
    /** Every report sent so far, in order. */
    sent,
    /**
     * One refresh: fetch, then sync every Application whose content changed (reports sent in order). Answers the
     * reports of this refresh.
     */
    async refresh(): Promise<SentReport[]> {
      const revision = await checkout();
      const now: SentReport[] = [];
      for (const [application, digest] of await applications(dir as string)) {
        if (synced.get(application) === digest) continue;
        synced.set(application, digest);
        const outcome = opts.outcome?.(application, revision) ?? 'Healthy';
        const at = wholeSecond();
        if (outcome === 'SyncFailed') {
          now.push(await post(application, revision, 'Error', 'Healthy', at));
          continue;
        }
        now.push(await post(application, revision, 'Synced', 'Progressing', at));
        now.push(await post(application, revision, 'Synced', outcome, at));
      }
      return now;
    },
    /**
     * Sends again, byte for byte, every report that no API answered 200 (a process stopped under it, 5xx): what Argo
     * CD's notification retries do. Answers the reports resent with their new answers.
     */
    async resendUnanswered(): Promise<SentReport[]> {
      const again: SentReport[] = [];
      for (const report of sent.filter((r) => r.status !== 200 && !r.resent)) {
        report.resent = true;
        again.push(
          await post(report.application, report.revision, report.syncStatus, report.healthStatus, report.timestamp),
        );
      }
      return again;
    },
    /** The digest the simulator last synced for each Application. */
    digests: () => new Map(synced),
    async close() {
      if (dir) await fs.rm(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}

export type ControllerSimulator = ReturnType<typeof controllerSimulator>;
