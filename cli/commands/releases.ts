import type { Command } from 'commander';
import type {
  ReleaseApproveRequest,
  ReleaseCancelRequest,
  ReleaseCreateRequest,
  ReleaseRejectRequest,
} from '../../api/request-types.generated';
import { CliError, EXIT } from '../lib/api-error';
import { confirm } from '../lib/confirm';
import { act, collect, keyValue, subcommand, waitOptions } from '../lib/command-kit';
import { tenantId } from '../lib/lookups';
import { printList, printValue } from '../lib/output';
import { validationRefusal } from '../lib/validation-refusal';
import { approvalsText, breakGlassText, observeRelease, syncText, type ReleaseView } from '../lib/release-progress';
import type { Release } from '../lib/api-types';
import type { Runtime } from '../lib/runtime';
import { follow } from '../lib/follow';

type Change = NonNullable<ReleaseCreateRequest['changes']>[number];

interface WaitFlags {
  wait?: boolean;
  timeout: string;
  interval: string;
}

interface CreateFlags extends WaitFlags {
  env: string;
  tenant: string;
  title?: string;
  set: string[];
  replicas: string[];
  var: string[];
  idempotencyKey?: string;
}

/** `--set web=1.2.0 --replicas web=3 --var web.LOG_LEVEL=debug` to the changes of a release, one per workload. */
export function changesOf(flags: Pick<CreateFlags, 'set' | 'replicas' | 'var'>): Change[] {
  const byWorkload = new Map<string, Change>();
  const change = (workload: string) => {
    const existing = byWorkload.get(workload) ?? { workload };
    byWorkload.set(workload, existing);
    return existing;
  };
  for (const entry of flags.set) {
    const [workload, tag] = keyValue(entry, '--set');
    change(workload).tag = tag;
  }
  for (const entry of flags.replicas) {
    const [workload, count] = keyValue(entry, '--replicas');
    if (!/^\d+$/.test(count)) throw new CliError(`--replicas ${entry}: the count must be a whole number`, EXIT.usage);
    change(workload).replicas = Number(count);
  }
  for (const entry of flags.var) {
    const [name, value] = keyValue(entry, '--var');
    const dot = name.indexOf('.');
    if (dot <= 0) throw new CliError(`--var ${entry}: use workload.NAME=value`, EXIT.usage);
    const c = change(name.slice(0, dot));
    c.variables = { ...c.variables, [name.slice(dot + 1)]: value };
  }
  return [...byWorkload.values()];
}

/** Follows a release until it ends (or the timeout), printing each step. */
export function waitForRelease(rt: Runtime, id: string, flags: WaitFlags): Promise<number> {
  rt.err.write(`following release ${id} (Ctrl-C stops following, not the release)\n`);
  return follow(rt, () => rt.api.get('/api/v2/releases/{id}', { path: { id } }), observeRelease, flags);
}

const RELEASE_COLUMNS = [
  { header: 'id', value: (r: ReleaseView) => r.id },
  { header: 'tenant', value: (r: ReleaseView) => r.tenant },
  { header: 'env', value: (r: ReleaseView) => r.environment },
  { header: 'status', value: (r: ReleaseView) => r.status },
  { header: 'title', value: (r: ReleaseView) => r.title },
  { header: 'commit', value: (r: ReleaseView) => r.commitSha?.slice(0, 12) },
];

export function registerReleases(program: Command): void {
  const release = subcommand(program, 'release', 'Create, follow and decide releases');

  waitOptions(
    subcommand(
      release,
      'create',
      'Create a release of new tags, replicas or variables for one tenant and environment',
      [
        'delivery release create --env prod --tenant acme --set web=1.2.0 --wait',
        'delivery release create --env dev --tenant acme --set web=1.3.0 --replicas web=3 --var web.LOG_LEVEL=debug',
      ],
    )
      .requiredOption('--env <environment>', 'target environment')
      .requiredOption('--tenant <tenant>', 'target tenant (slug or id)')
      .option('--title <title>', 'title (default: the changes in words)')
      .option('--set <workload=tag>', 'new image tag of a workload (repeatable)', collect, [])
      .option('--replicas <workload=count>', 'new replica count (repeatable)', collect, [])
      .option('--var <workload.NAME=value>', 'set a variable (repeatable)', collect, [])
      .option('--idempotency-key <key>', 'retrying with the same key returns the same release'),
  ).action(
    act<CreateFlags>(async (rt, flags) => {
      const project = rt.project();
      const changes = changesOf(flags);
      if (changes.length === 0) throw new CliError('nothing to release: give --set, --replicas or --var', EXIT.usage);
      const body: ReleaseCreateRequest = {
        environment: flags.env,
        tenantId: await tenantId(rt.api, project, flags.tenant),
        title: flags.title ?? changes.map(describeChange).join(', '),
        changes,
      };
      const headers = flags.idempotencyKey ? { 'Idempotency-Key': flags.idempotencyKey } : undefined;
      const created = await rt.api
        .post('/api/v2/projects/{slug}/releases', { path: { slug: project }, body, headers })
        .catch((err: unknown) => {
          rt.err.write(validationRefusal(err) ?? '');
          throw err;
        });
      if (!flags.wait) return printValue(rt.out, rt.output, rt.output === 'table' ? summary(created) : created);
      rt.err.write(`created release ${created.id}\n`);
      return waitForRelease(rt, created.id, flags);
    }),
  );

  subcommand(release, 'list', 'Releases of the project, newest first', [
    'delivery release list --env prod --status Syncing',
  ])
    .option('--env <environment>', 'only this environment')
    .option('--tenant <tenant>', 'only this tenant (slug or id)')
    .option('--status <status>', 'only this status')
    .option('--limit <n>', 'page size', '20')
    .action(
      act<{ env?: string; tenant?: string; status?: string; limit: string }>(async (rt, flags) => {
        const project = rt.project();
        const page = await rt.api.get('/api/v2/projects/{slug}/releases', {
          path: { slug: project },
          query: {
            environment: flags.env,
            tenantId: flags.tenant ? await tenantId(rt.api, project, flags.tenant) : undefined,
            status: flags.status,
            limit: flags.limit,
          },
        });
        printList(rt.out, rt.output, page.items, RELEASE_COLUMNS, page);
      }),
    );

  waitOptions(
    subcommand(release, 'get', 'One release: status, validation, approvals, commit, sync', [
      'delivery release get <id> --wait',
    ]).argument('<id>'),
  ).action(
    act<WaitFlags>(async (rt, flags, [id]) => {
      if (flags.wait) return waitForRelease(rt, id!, flags);
      const detail = await rt.api.get('/api/v2/releases/{id}', { path: { id: id! } });
      printValue(rt.out, rt.output, rt.output === 'table' ? summary(detail) : detail);
    }),
  );

  subcommand(release, 'history', 'The release timeline: workflow steps with actors, beside its audit entries')
    .argument('<id>')
    .action(
      act(async (rt, _flags, [id]) => {
        const history = await rt.api.get('/api/v2/releases/{id}/history', { path: { id: id! } });
        printList(
          rt.out,
          rt.output,
          history.timeline,
          [
            { header: 'at', value: (t) => t.time },
            { header: 'step', value: (t) => t.step },
            { header: 'actor', value: (t) => t.actor },
          ],
          history,
        );
      }),
    );

  decision(release, 'approve', 'Approve a release waiting for approvals', (flags): ReleaseApproveRequest => ({
    comment: flags.comment,
  }));
  decision(
    release,
    'reject',
    'Reject a release waiting for approvals (a comment is required)',
    (flags): ReleaseRejectRequest => {
      if (!flags.comment) throw new CliError('reject needs --comment', EXIT.usage);
      return { comment: flags.comment };
    },
  );
  decision(release, 'cancel', 'Cancel a release that has not been committed', (flags): ReleaseCancelRequest => ({
    reason: flags.comment,
  }));
  waitOptions(
    subcommand(release, 'deploy', 'Deploy an approved release (projects that do not auto-deploy)').argument('<id>'),
  ).action(
    act<WaitFlags>(async (rt, flags, [id]) => {
      const answer = await rt.api.post('/api/v2/releases/{id}/deploy', { path: { id: id! } });
      if (flags.wait) return waitForRelease(rt, id!, flags);
      printValue(rt.out, rt.output, rt.output === 'table' ? summary(answer) : answer);
    }),
  );
}

/** approve / reject / cancel: one POST with an optional comment. */
function decision(
  parent: Command,
  verb: 'approve' | 'reject' | 'cancel',
  description: string,
  body: (flags: { comment?: string }) => object,
) {
  subcommand(parent, verb, description, [`delivery release ${verb} <id> --comment "..."`])
    .argument('<id>')
    .option('-m, --comment <text>', 'comment (the reason, for cancel)')
    .action(
      act<{ comment?: string; yes?: boolean }>(async (rt, flags, [id]) => {
        if (verb === 'cancel') await confirm(rt, flags.yes, `cancel release ${id!}`);
        const route = `/api/v2/releases/{id}/${verb}` as const;
        const answer = await rt.api.post(route, { path: { id: id! }, body: body(flags) });
        printValue(rt.out, rt.output, rt.output === 'table' ? summary(answer) : answer);
      }),
    );
}

function describeChange(c: Change): string {
  const parts = [c.tag && `${c.workload} ${c.tag}`, c.replicas !== undefined && `${c.workload} x${c.replicas}`];
  if (c.variables) parts.push(`${c.workload} ${Object.keys(c.variables).join(',')}`);
  return parts.filter(Boolean).join(', ');
}

function summary(r: Release) {
  return {
    id: r.id,
    title: r.title,
    tenant: r.tenant,
    environment: r.environment,
    status: r.status,
    reason: r.statusReason,
    commit: r.commitSha,
    approvals: approvalsText(r),
    ...(r.breakGlass && !r.approvals?.bypassedBy ? { 'break-glass': breakGlassText(r.breakGlass) } : {}),
    sync: syncText(r),
  };
}
