/**
 * The deployments history at issue 47's size:
 *   npm run bench:history [-- --tenants 50 --deployments 25 --samples 40]
 * Starts the platform on embedded defaults (ports from the environment as every bench, bench/ports.ts), makes project
 * `shop` with 4 environments and `--tenants` tenants, 5 services each, and writes `--deployments` deployments per
 * Application over 90 days straight into `deployed_target_events` (a commit, Progressing, Healthy and its verification;
 * every tenth Degraded instead, restored by the next): 50 x 4 x 5 x 25 x 4 = 100,000 events. Then times, round-robin
 * so each sees the same machine, the statements the routes send: a page of 50 of the matrix of now (the reference: a
 * plain indexed lookup of `deployed_targets`), a page of 50 of the matrix at an instant, a page of 50 of the changes
 * over one day, and the project's metrics over 90 days. Prints p50/p95 per query and the ratio to the reference.
 */
import { apiCaller } from '../api-call';
import { runBench } from '../run-bench';
import { makeShopProject } from '../shop-project';
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';
import { matrixPage } from '../../src/deployments/deployed-state-repository';
import {
  deploymentFigures,
  incidentFigures,
  leadTimeFigures,
  type MetricsQuery,
} from '../../src/deployments/delivery-metrics-repository';
import { changedTargetsPage, matrixPageAt, windowEvents } from '../../src/deployments/deployment-history-repository';
import { RELEASE_KINDS_SQL } from '../../src/releases/release-repository';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const DAY = 86_400_000;
const SERVICES = ['web', 'api', 'worker', 'cron', 'gateway'];

async function main(): Promise<void> {
  const [tenantCount, deployments, samples] = [arg('tenants', 50), arg('deployments', 25), arg('samples', 40)];
  const platform = await startBenchPlatform();
  try {
    const { db } = platform.services;
    const call = apiCaller(platform.baseUrl, platform.token);
    const { environments } = await makeShopProject(call, { environments: 4, tenants: tenantCount });
    const project = (await db('projects').where({ slug: 'shop' }).first('id', 'organization_id')) as {
      id: string;
      organization_id: string;
    };
    const start = Date.now() - 90 * DAY;
    let began = process.hrtime.bigint();
    await db.raw(
      `INSERT INTO deployed_targets (organization_id, project_id, tenant_id, tenant_slug, environment, service)
       SELECT pt.organization_id, pt.project_id, pt.id, pt.slug, e, s
       FROM project_tenants pt, unnest(?::text[]) AS e, unnest(?::text[]) AS s WHERE pt.project_id = ?`,
      [environments, SERVICES, project.id],
    );
    // Deployment d of every Application at start + d * (90 days / deployments), its steps a minute apart.
    await db.raw(
      `INSERT INTO deployed_target_events (organization_id, project_id, tenant_id, environment, service, kind,
         revision, position, digest, version, source_kind, actor, sync_status, health_status, at)
       SELECT dt.organization_id, dt.project_id, dt.tenant_id, dt.environment, dt.service,
         CASE WHEN k = 0 THEN 'commit' WHEN k = 3 AND d % 10 <> 9 THEN 'verified' ELSE 'report' END,
         'r' || d, d + 1, 'sha256:' || d, '1.' || d || '.0', 'release', 'bench',
         CASE WHEN k IN (1, 2) OR d % 10 = 9 AND k = 3 THEN 'Synced' END,
         CASE WHEN k = 1 THEN 'Progressing' WHEN k = 2 AND d % 10 = 9 THEN 'Degraded' WHEN k = 2 THEN 'Healthy'
              WHEN k = 3 AND d % 10 = 9 THEN 'Progressing' END,
         ?::timestamptz + d * (? * interval '1 millisecond') + k * interval '1 minute'
       FROM deployed_targets dt, generate_series(0, ? - 1) AS d, generate_series(0, 3) AS k
       WHERE dt.project_id = ?`,
      [new Date(start), (90 * DAY) / deployments, deployments, project.id],
    );
    await db.raw('ANALYZE deployed_target_events');
    await db.raw('ANALYZE deployed_targets');
    const count = (await db('deployed_target_events').count('* as n').first()) as { n: string };
    line(`wrote ${Number(count.n).toLocaleString('en')} events in ${(elapsedMs(began) / 1000).toFixed(1)} s`);

    const org = project.organization_id;
    const instant = (i: number) => new Date(start + (10 + ((i * 7) % 79)) * DAY + (i % 24) * 3_600_000);
    const metrics: MetricsQuery = {
      organizationId: org,
      projectId: project.id,
      filter: {},
      from: new Date(Date.now() - 90 * DAY),
      to: new Date(),
      failureWindowSeconds: 3600,
      groupBy: 'environment',
      releases: RELEASE_KINDS_SQL,
    };
    const queries: Record<string, (i: number) => Promise<unknown>> = {
      'matrix now (reference)': () => matrixPage(db, org, project.id, {}, { limit: 50 }),
      'matrix at an instant': (i) => matrixPageAt(db, org, project.id, {}, { limit: 50 }, instant(i)),
      'changes over a day': async (i) => {
        const window = { from: instant(i), to: new Date(instant(i).getTime() + DAY) };
        const page = await changedTargetsPage(db, org, project.id, {}, { limit: 50 }, window);
        return windowEvents(db, project.id, page.items, window, 201);
      },
      'metrics over 90 days': () =>
        Promise.all([deploymentFigures(db, metrics), leadTimeFigures(db, metrics), incidentFigures(db, metrics)]),
    };
    const times = new Map(Object.keys(queries).map((k) => [k, [] as number[]]));
    for (const run of Object.values(queries)) await run(samples);
    for (let i = 0; i < samples; i++) {
      for (const [name, run] of Object.entries(queries)) {
        began = process.hrtime.bigint();
        await run(i);
        times.get(name)!.push(elapsedMs(began));
      }
    }
    const p = (name: string, q: number) =>
      percentile(
        [...times.get(name)!].sort((a, b) => a - b),
        q,
      );
    const reference = p('matrix now (reference)', 95);
    const goals: Record<string, string> = {
      'matrix at an instant': ' (goal < 150 ms)',
      'metrics over 90 days': ' (goal < 300 ms)',
    };
    line(`\n${samples} samples per query, ${tenantCount} tenants x 4 environments x 5 services`);
    for (const name of Object.keys(queries)) {
      line(
        `${name.padEnd(24)} p50 ${p(name, 50).toFixed(2).padStart(8)} ms  p95 ${p(name, 95).toFixed(2).padStart(8)} ms` +
          `  ${(p(name, 95) / reference).toFixed(1)}x the reference${goals[name] ?? ''}`,
      );
    }
  } finally {
    await platform.stop();
  }
}

runBench(main);
