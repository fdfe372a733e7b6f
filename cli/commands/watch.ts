import type { Command } from 'commander';
import type { WatchSubscriptionCreateRequest } from '../../api/request-types.generated';
import type { WatchDiscovery, WatchSubscription } from '../lib/api-types';
import { CliError, EXIT } from '../lib/api-error';
import { act, subcommand } from '../lib/command-kit';
import { list } from '../lib/lookups';
import { acknowledge, printList, printValue } from '../lib/output';

/** A policy in one line: `semver >=1.0.0 <2.0.0`, `regex ^v(\d+)$ numeric`, `digest stable`. */
export function policyText(policy: WatchSubscription['policy']): string {
  if (policy.kind === 'semver') return `semver ${policy.range}${policy.includePrerelease ? ' (pre-releases)' : ''}`;
  if (policy.kind === 'regex') return `regex ${policy.pattern} ${policy.order}`;
  return `digest ${policy.tag}`;
}

interface AddFlags {
  workload: string;
  repository: string;
  registry?: string;
  semver?: string;
  prerelease?: boolean;
  regex?: string;
  order: 'alphabetical' | 'numeric' | 'created';
  digest?: string;
  chart?: boolean;
  env: string;
  tenants?: string;
}

/** The policy the flags name: exactly one of --semver, --regex, --digest. */
function policyOf(flags: AddFlags): WatchSubscriptionCreateRequest['policy'] {
  const given = [flags.semver, flags.regex, flags.digest].filter((v) => v !== undefined);
  if (given.length !== 1) throw new CliError('give exactly one policy: --semver, --regex or --digest', EXIT.usage);
  if (flags.semver !== undefined) {
    return { kind: 'semver', range: flags.semver, includePrerelease: flags.prerelease ?? false };
  }
  if (flags.regex !== undefined) return { kind: 'regex', pattern: flags.regex, order: flags.order };
  return { kind: 'digest', tag: flags.digest as string };
}

/**
 * One row per target a discovery's outcome concerned, and per image rollout it started (every tenant of its
 * environment, state `rollout`, the rollout's id as detail: its waves update those targets), or one for the outcome when it concerned none.
 */
interface Row {
  d: WatchDiscovery;
  o: WatchDiscovery['outcomes'][number] | null;
  t: WatchDiscovery['outcomes'][number]['targets'][number] | null;
}

function rowsOf(items: WatchDiscovery[]): Row[] {
  const rows: Row[] = [];
  for (const d of items) {
    if (d.outcomes.length === 0) rows.push({ d, o: null, t: null });
    for (const o of d.outcomes) {
      const rollouts = (o.rollouts ?? []).map((r) => ({
        tenant: '*',
        environment: r.environment,
        state: 'rollout',
        detail: r.rolloutId,
      }));
      const targets = [...o.targets, ...rollouts];
      if (targets.length === 0) rows.push({ d, o, t: null });
      for (const t of targets) rows.push({ d, o, t });
    }
  }
  return rows;
}

/** `delivery watch`: subscriptions of workloads to new versions, and what was found (docs/automation.md). */
export function registerWatch(program: Command): void {
  const watch = subcommand(program, 'watch', 'New versions found by policy: subscriptions and discoveries');

  subcommand(watch, 'list', "The project's watch subscriptions").action(
    act(async (rt) => {
      const answer = await rt.api.get('/api/v2/projects/{slug}/watch/subscriptions', { path: { slug: rt.project() } });
      printList(
        rt.out,
        rt.output,
        answer.items,
        [
          { header: 'id', value: (s) => s.id },
          { header: 'workload', value: (s) => s.workload },
          { header: 'kind', value: (s) => s.kind },
          { header: 'repository', value: (s) => (s.registry ? `${s.registry}:${s.repository}` : s.repository) },
          { header: 'policy', value: (s) => policyText(s.policy) },
          { header: 'environments', value: (s) => s.environments.join(',') },
          { header: 'tenants', value: (s) => (s.tenants.length > 0 ? s.tenants.join(',') : 'all') },
        ],
        answer,
      );
    }),
  );

  subcommand(watch, 'add', 'Subscribe a workload to new versions of a repository under a policy', [
    "delivery watch add --workload web --repository shop/web --semver '>=1.0.0 <2.0.0' --env dev",
    'delivery watch add --workload web --registry hub --repository library/nginx --digest stable --env dev,staging',
    "delivery watch add --workload api --repository shop/api --regex '^build-([0-9]+)$' --order numeric --env dev",
    "delivery watch add --workload site --chart --repository charts/site --semver '>=1.0.0 <2.0.0' --env dev",
  ])
    .requiredOption('--workload <name>', 'the workload whose image follows the repository')
    .requiredOption('--repository <name>', 'repository path (organization registry: after /v2/<organization>/)')
    .option(
      '--registry <name>',
      'an external registry added at /api/v2/watch/registries (default: the organization registry)',
    )
    .option('--semver <range>', 'policy: the highest version in this semver range')
    .option('--prerelease', 'with --semver: pre-release versions count')
    .option('--regex <pattern>', 'policy: tags matching the pattern, the last in --order')
    .option(
      '--order <order>',
      'with --regex: alphabetical, numeric or created (newest image by its config created time)',
      'alphabetical',
    )
    .option('--digest <tag>', 'policy: track the digest of this mutable tag')
    .option('--chart', "the workload's chart version follows the repository (a chart-based workload), not its image")
    .requiredOption('--env <list>', 'environments updated automatically (others only record the discovery)')
    .option('--tenants <list>', 'tenants updated (default: every tenant of the project)')
    .action(
      act<AddFlags>(async (rt, flags) => {
        const body: WatchSubscriptionCreateRequest = {
          workload: flags.workload,
          ...(flags.chart ? { kind: 'chart' as const } : {}),
          repository: flags.registry
            ? { source: 'external', registry: flags.registry, name: flags.repository }
            : { source: 'platform', name: flags.repository },
          policy: policyOf(flags),
          environments: (list(flags.env) ?? []) as WatchSubscriptionCreateRequest['environments'],
          ...(flags.tenants !== undefined ? { tenants: list(flags.tenants) } : {}),
        };
        const created = await rt.api.post('/api/v2/projects/{slug}/watch/subscriptions', {
          path: { slug: rt.project() },
          body,
        });
        if (rt.output !== 'table') return printValue(rt.out, rt.output, created);
        rt.out.write(`${created.id}\n`);
        rt.err.write(`${created.workload} follows ${created.repository} (${policyText(created.policy)})\n`);
      }),
    );

  subcommand(watch, 'remove', 'Delete a subscription (the discoveries recorded stay)')
    .argument('<id>')
    .action(
      act(async (rt, _flags, [id]) => {
        await rt.api.delete('/api/v2/projects/{slug}/watch/subscriptions/{id}', {
          path: { slug: rt.project(), id: id! },
        });
        acknowledge(rt, `subscription ${id} deleted`, { deleted: id });
      }),
    );

  subcommand(
    watch,
    'discoveries',
    'Versions found, newest first: what each policy chose and, per target, verified, syncing, replaced or why not',
    ['delivery watch discoveries --workload web', 'delivery watch discoveries --limit 5 -o json'],
  )
    .option('--workload <name>', 'only the subscriptions of this workload')
    .option('--limit <n>', 'discoveries to show (the newest)', '20')
    .action(
      act<{ workload?: string; limit: string }>(async (rt, flags) => {
        const answer = await rt.api.get('/api/v2/projects/{slug}/watch/discoveries', {
          path: { slug: rt.project() },
          query: { workload: flags.workload, limit: flags.limit },
        });
        printList(
          rt.out,
          rt.output,
          rowsOf(answer.items),
          [
            { header: 'found', value: (r) => r.d.foundAt },
            { header: 'version', value: (r) => `${r.d.repository}:${r.d.tag}` },
            { header: 'workload', value: (r) => r.o?.workload ?? '-' },
            { header: 'kind', value: (r) => r.o?.kind ?? '-' },
            { header: 'result', value: (r) => r.o?.result ?? r.d.status },
            { header: 'target', value: (r) => (r.t ? `${r.t.tenant}/${r.t.environment}` : '-') },
            { header: 'state', value: (r) => r.t?.state ?? '-' },
            { header: 'detail', value: (r) => r.t?.detail ?? r.o?.error ?? '' },
          ],
          answer,
        );
      }),
    );
}
