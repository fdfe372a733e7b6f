/**
 * Rollout figures (issue 48, Performance):
 *   npm run bench:rollout [-- --tenants 100 --waves 5 --runs 3]
 * Starts the platform on embedded defaults (API and worker in this process, PostgreSQL and Temporal embedded; ports
 * from the environment as every bench, bench/ports.ts). Per run, a fresh project of `--tenants` tenants, environments
 * dev and prod, one workload `web`; every tenant moved to a newer version in dev by ONE bulk image update (one commit
 * for all the tenants, rather than a release per tenant), then the controller's Synced/Healthy report of each dev
 * Application at that commit. Then a rollout dev -> prod with an explicit plan of `--waves` percent waves (each the
 * same share of the tenants, soakSeconds 0, no checks); for each wave the bench waits for its promotion to commit
 * (Syncing) and at once posts the controller's Synced/Healthy reports of its tenants. The figure, per wave boundary
 * (`waves - 1` per run), from the audit trail: the next wave's commit (its promotion's `promotion.execute` entry) minus
 * the wave's verification (`rollout.wave.verify`): p50, p95, max (goal p95 < 1 s, soak excluded: it is 0 here).
 * The reference, in the same run: a plain promotion of one wave's number of tenants (`promotion/request`), from its
 * `promotion.request` entry to its `promotion.execute` entry (the floor of starting a wave), `waves` per run; printed
 * with the ratio of the wave gap's p95 to the reference's p95. Also the rollout workflow's history length per run
 * (the 7-day soak figure is measured on the time-skipping server: test/workflows/rollout-workflow.test.ts).
 */
import { apiCaller } from '../api-call';
import { runBench } from '../run-bench';
import { addWorkload, makeProject } from '../shop-project';
import { startBenchPlatform } from '../validate/platform';
import { line, percentile } from '../validate/stats';
import { controllerClient } from '../../test/integration/webhooks/controller-client';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

interface Rollout {
  id: string;
  status: string;
  statusReason: string | null;
  workflowId: string;
  waves: { name: string; tenants: string[]; state: string; promotionIds: string[] }[];
}
interface Promotion {
  id: string;
  status: string;
  statusReason: string | null;
  commitSha: string | null;
}
interface AuditEntry {
  action: string;
  createdAt: string;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 25 ms until it answers a value; fails after `timeoutMs` with what it last saw. */
async function poll<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(25);
  }
}

async function main(): Promise<void> {
  const [tenantCount, waveCount, runs] = [arg('tenants', 100), arg('waves', 5), arg('runs', 3)];
  const waveSize = Math.ceil(tenantCount / waveCount);
  const platform = await startBenchPlatform({}, { worker: true });
  try {
    const call = apiCaller(platform.baseUrl, platform.token);
    const controller = controllerClient(platform.baseUrl);
    const controllerToken = await controller.tokenFor(platform.token);
    for (const slug of ['dev', 'prod']) await call('POST', '/api/v2/org/environments', { slug });

    const audit = async (resourceId: string) =>
      (await call<{ items: AuditEntry[] }>('GET', `/api/v2/audit-logs?resourceId=${resourceId}&limit=200`)).items;
    const at = (entries: AuditEntry[], action: string, n = 0) => {
      const entry = entries.filter((e) => e.action === action).sort((a, b) => a.createdAt.localeCompare(b.createdAt))[
        n
      ];
      if (!entry) throw new Error(`no ${action} entry #${n + 1}`);
      return Date.parse(entry.createdAt);
    };
    /** The controller's Synced/Healthy report of each tenant's `web` in `environment` at `sha`, 10 at a time. */
    const report = async (slug: string, tenants: string[], environment: string, sha: string) => {
      for (let i = 0; i < tenants.length; i += 10) {
        await Promise.all(
          tenants.slice(i, i + 10).map(async (tenant) => {
            const res = await controller.post(
              controllerToken,
              controller.event(`${slug}.${tenant}.${environment}.web`, sha, 'Healthy', 'Synced'),
            );
            if (res.status !== 200) throw new Error(`controller report ${tenant}: ${res.status} ${res.text}`);
          }),
        );
      }
    };
    /** One bulk image update of `web` to `tag` in dev for every tenant (one commit), then their dev reports. */
    const releaseToDev = async (slug: string, tenants: string[], tag: string) => {
      const began = Date.now();
      const pairs = tenants.map((tenant) => ({ tenant, environment: 'dev' }));
      const { commit } = await call<{ commit: string }>('POST', `/api/v2/projects/${slug}/bulk-update`, {
        workload: 'web',
        tag,
        pairs,
      });
      await report(slug, tenants, 'dev', commit);
      return Date.now() - began;
    };
    const promotion = (id: string) => call<Promotion>('GET', `/api/v2/promotions/${id}`);
    const syncing = (id: string) =>
      poll(`promotion ${id} Syncing`, async () => {
        const p = await promotion(id);
        if (p.status === 'Syncing' && p.commitSha) return p.commitSha;
        if (['Failed', 'Cancelled', 'Expired', 'Healthy', 'Degraded'].includes(p.status))
          throw new Error(`promotion ${id} is ${p.status} (${p.statusReason ?? ''})`);
        return null;
      });

    const gaps: number[] = [];
    const requestToStart: number[] = [];
    const references: number[] = [];
    const referencesClient: number[] = [];
    const histories: number[] = [];
    const totals: number[] = [];
    for (let run = 0; run < runs; run++) {
      const slug = `roll-${run}`;
      await makeProject(call, slug, ['dev', 'prod'], tenantCount);
      await addWorkload(call, slug, 'web');
      const tenants = Array.from({ length: tenantCount }, (_, t) => `t${t}`);
      const devMs = await releaseToDev(slug, tenants, '2.0.0');

      const waves = Array.from({ length: waveCount }, (_, i) => ({
        name: `w${i + 1}`,
        percent: Math.floor(100 / (waveCount - i)),
        soakSeconds: 0,
      }));
      const started = Date.now();
      let rollout = await call<Rollout>('POST', `/api/v2/projects/${slug}/rollouts`, {
        sourceEnvironment: 'dev',
        targetEnvironment: 'prod',
        plan: { waves },
      });
      const id = rollout.id;
      for (let i = 0; i < waveCount; i++) {
        rollout = await poll(`wave ${i + 1} promotion`, async () => {
          const r = await call<Rollout>('GET', `/api/v2/rollouts/${id}`);
          if (r.status === 'Halted' || r.status === 'Aborted')
            throw new Error(`rollout ${r.status}: ${r.statusReason}`);
          return r.waves[i]!.promotionIds.length > 0 ? r : null;
        });
        const sha = await syncing(rollout.waves[i]!.promotionIds.at(-1)!);
        await report(slug, rollout.waves[i]!.tenants, 'prod', sha);
      }
      rollout = await poll('rollout completed', async () => {
        const r = await call<Rollout>('GET', `/api/v2/rollouts/${id}`);
        return r.status === 'Completed' ? r : null;
      });
      totals.push(Date.now() - started);
      const trail = await audit(id);
      for (let i = 0; i + 1 < waveCount; i++) {
        const next = await audit(rollout.waves[i + 1]!.promotionIds.at(-1)!);
        const verified = at(trail, 'rollout.wave.verify', i);
        gaps.push(at(next, 'promotion.execute') - verified);
        requestToStart.push(at(next, 'promotion.request') - verified);
      }
      const described = await platform.services.temporal.workflow.getHandle(rollout.workflowId).describe();
      histories.push(described.historyLength);

      // The reference: plain promotions of one wave's number of tenants, from a newer dev version again.
      await releaseToDev(slug, tenants, '3.0.0');
      for (let k = 0; k < waveCount; k++) {
        const slice = tenants.slice(k * waveSize, (k + 1) * waveSize);
        if (slice.length === 0) break;
        const began = Date.now();
        const requested = await call<Promotion>('POST', `/api/v2/projects/${slug}/promotion/request`, {
          sourceEnvironment: 'dev',
          targetEnvironment: 'prod',
          tenants: slice,
        });
        const sha = await syncing(requested.id);
        referencesClient.push(Date.now() - began);
        const trailOf = await audit(requested.id);
        references.push(at(trailOf, 'promotion.execute') - at(trailOf, 'promotion.request'));
        await report(slug, slice, 'prod', sha);
        await poll(`promotion ${requested.id} Healthy`, async () =>
          (await promotion(requested.id)).status === 'Healthy' ? true : null,
        );
      }
      line(
        `run ${run + 1}: dev release of ${tenantCount} tenants (one bulk update + reports) ${devMs} ms; rollout ` +
          `${(totals.at(-1)! / 1000).toFixed(1)} s; gaps ${gaps
            .slice(-(waveCount - 1))
            .map((g) => g.toFixed(0))
            .join(', ')} ms; history ${histories.at(-1)} events`,
      );
    }

    const summary = (label: string, ms: number[], goal = '') => {
      const sorted = [...ms].sort((a, b) => a - b);
      const p = (q: number) => percentile(sorted, q).toFixed(0).padStart(6);
      return (
        `${label.padEnd(52)} p50 ${p(50)} ms  p95 ${p(95)} ms  max ${(sorted.at(-1) ?? NaN).toFixed(0).padStart(6)} ms` +
        `  (n=${ms.length})${goal}`
      );
    };
    const p95 = (ms: number[]) =>
      percentile(
        [...ms].sort((a, b) => a - b),
        95,
      );
    line(`\n${runs} rollouts over ${tenantCount} tenants in ${waveCount} waves (~${waveSize} each), soak 0, no checks`);
    const met = p95(gaps) < 1000 ? 'met' : 'MISSED';
    line(summary('wave verified -> next wave committed', gaps, `  goal p95 < 1000 ms: ${met}`));
    line(summary('  of which verified -> next promotion.request', requestToStart));
    line(summary(`reference: promotion of ${waveSize} tenants, request -> commit`, references));
    line(summary('  (the same, client: POST -> Syncing seen)', referencesClient));
    line(`ratio wave gap p95 / reference p95: ${(p95(gaps) / p95(references)).toFixed(2)}x`);
    line(
      `rollout workflow history per run: ${histories.join(', ')} events (goal < 2,000 through a 7-day soak: ` +
        'docs/rollouts.md, Workflow)',
    );
  } finally {
    await platform.stop();
  }
}

runBench(main);
