import { versionsText } from '../../client/versions-text';
import type { Command } from 'commander';
import type { BulkUpdateRequest, CompareQueryRequest, RollbackRequest } from '../../api/request-types.generated';
import { CliError, EXIT } from '../lib/api-error';
import { mayCall, whoAmI } from '../lib/caller';
import { act, subcommand, waitOptions } from '../lib/command-kit';
import { confirm } from '../lib/confirm';
import { allPages, tenantId } from '../lib/lookups';
import { paint, printList, printValue } from '../lib/output';
import type { Runtime } from '../lib/runtime';
import { waitForRelease } from './releases';

export function registerProjectViews(program: Command): void {
  subcommand(
    program,
    'status',
    'What runs where: desired and live version, sync and health per tenant, environment, service',
    [
      'delivery status --env prod',
      'delivery status --tenant acme -o json',
      'delivery status --env prod --at 2026-11-28T14:05:00Z',
    ],
  )
    .option('--at <instant>', 'as it was at this ISO 8601 instant (with a time zone, e.g. 2026-11-28T14:05:00Z)')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--env <environment>', 'only this environment')
    .option('--service <service>', 'only this service')
    .action(
      act<{ tenant?: string; env?: string; service?: string; at?: string }>(async (rt, flags) => {
        const filter = { tenant: flags.tenant, environment: flags.env, service: flags.service, at: flags.at };
        const rows = await allPages((cursor) =>
          rt.api.get('/api/v2/projects/{slug}/deployments', {
            path: { slug: rt.project() },
            query: { ...filter, limit: 100, cursor },
          }),
        );
        if (flags.at && rt.output === 'table') rt.out.write(`as it was at ${flags.at}\n`);
        printList(
          rt.out,
          rt.output,
          rows,
          [
            { header: 'tenant', value: (r) => r.tenant },
            { header: 'env', value: (r) => r.environment },
            { header: 'service', value: (r) => r.service },
            { header: 'desired', value: (r) => r.desired?.version },
            { header: 'live', value: (r) => r.live?.version },
            { header: 'sync', value: (r) => r.live?.syncStatus },
            { header: 'health', value: (r) => r.live?.healthStatus },
            { header: 'current', value: (r) => (r.current ? 'yes' : 'no') },
            { header: 'by', value: (r) => (r.desired ? `${r.desired.by.kind} ${r.desired.by.actor}` : null) },
            { header: 'since', value: (r) => r.desired?.since },
          ],
          flags.at ? { at: flags.at, items: rows } : { items: rows },
        );
      }),
    );

  subcommand(
    program,
    'compare',
    'Compare two environments: images, replicas, variables, resources, chart versions, helm values, overlays, manifests',
    ['delivery compare --from staging --to prod', 'delivery compare --from staging --to prod --type image --all'],
  )
    .requiredOption('--from <environment>', 'the source: what is proposed (as in promote --from)')
    .requiredOption('--to <environment>', 'the target: what runs now; differences read current -> proposed')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--service <service>', 'only this service')
    .option(
      '--type <type>',
      'only one kind of difference (image, replicas, variables, resources, chart-versions, helm-values, overlays, manifests, application)',
    )
    .option('--all', 'also list pairs without differences')
    .option('--exit-code', `exit ${EXIT.differences} when there are differences, 0 when there are none`)
    .action(
      act<{
        from: string;
        to: string;
        tenant?: string;
        service?: string;
        type?: string;
        all?: boolean;
        exitCode?: boolean;
      }>(async (rt, flags) => {
        const query: CompareQueryRequest = {
          from: flags.from,
          to: flags.to,
          tenant: flags.tenant,
          service: flags.service,
          type: flags.type as CompareQueryRequest['type'],
          changedOnly: flags.all ? 'false' : 'true',
        };
        const answer = await rt.api.get('/api/v2/projects/{slug}/compare', {
          path: { slug: rt.project() },
          query: { ...query },
        });
        const differ = answer.items.some((item) => item.differences.length > 0);
        const code = flags.exitCode && differ ? EXIT.differences : EXIT.ok;
        if (rt.output !== 'table') {
          printValue(rt.out, rt.output, answer);
          return code;
        }
        if (answer.items.length === 0) rt.out.write(`no differences between ${flags.from} and ${flags.to}\n`);
        else rt.out.write(`${flags.to} (current) -> ${flags.from} (proposed)\n`);
        for (const item of answer.items) {
          rt.out.write(`${paint(rt.out, 'bold', `${item.tenant}/${item.service}`)}\n`);
          if (item.differences.length === 0) rt.out.write('  (same)\n');
          for (const d of item.differences) {
            if (d.diff !== undefined) rt.out.write(`  ${d.type}:\n${indent(d.diff)}`);
            else rt.out.write(`  ${d.type}: ${JSON.stringify(d.to)} -> ${JSON.stringify(d.from)}\n`);
          }
        }
        return code;
      }),
    );

  subcommand(program, 'bulk-update', 'Set one workload tag on tenant/environment pairs in one commit', [
    'delivery bulk-update --workload web --pairs acme:prod,globex:prod --tag 1.4.0 --preview',
    'delivery bulk-update --workload web --pairs acme:prod,globex:prod --tag 1.4.0',
  ])
    .requiredOption('--workload <name>', 'the workload')
    .requiredOption('--pairs <tenant:env,...>', 'tenant and environment pairs')
    .requiredOption('--tag <tag>', 'the new image tag')
    .option('-m, --message <text>', 'commit message')
    .option('--preview', 'show the files that would change, commit nothing')
    .option('--rollout <plan|none>', "none: skip environments' rollout plans, one commit (break-glass only)")
    .action(
      act<{
        workload: string;
        pairs: string;
        tag: string;
        message?: string;
        preview?: boolean;
        rollout?: string;
        yes?: boolean;
      }>(async (rt, flags) => {
        const pairs = flags.pairs.split(',').map((pair) => {
          const [tenant, environment, extra] = pair.trim().split(':');
          if (!tenant || !environment || extra !== undefined) {
            throw new CliError(`--pairs: "${pair}" is not tenant:environment`, EXIT.usage);
          }
          return { tenant, environment };
        });
        const body: BulkUpdateRequest = {
          workload: flags.workload,
          pairs: pairs as BulkUpdateRequest['pairs'],
          tag: flags.tag,
          ...(flags.message ? { message: flags.message } : {}),
          ...(flags.rollout ? { rollout: flags.rollout as BulkUpdateRequest['rollout'] } : {}),
        };
        const call = { path: { slug: rt.project() }, body };
        const preview = () => rt.api.post('/api/v2/projects/{slug}/bulk-update/preview', call);
        if (flags.preview) return printValue(rt.out, rt.output === 'table' ? 'yaml' : rt.output, await preview());
        await confirm(rt, flags.yes, `set ${flags.workload} to ${flags.tag} on ${flags.pairs} in one commit`, () =>
          showPreview(rt, preview),
        );
        const answer = await rt.api.post('/api/v2/projects/{slug}/bulk-update', call);
        printValue(rt.out, rt.output === 'table' ? 'yaml' : rt.output, answer);
        // A pipeline must not read "every pair is pinned: nothing committed" as a deployed update; rollouts started
        // in an environment's waves (docs/rollouts.md) are something done.
        return answer.commit === null && !answer.rollouts?.length ? EXIT.nothingDone : EXIT.ok;
      }),
    );

  waitOptions(
    subcommand(program, 'rollback', 'Preview or roll back a tenant environment to the last Healthy release', [
      'delivery rollback --tenant acme --env prod --preview',
      'delivery rollback --tenant acme --env prod --to <release-id> --reason "bad config" --wait',
    ])
      .requiredOption('--tenant <tenant>', 'tenant (slug or id)')
      .requiredOption('--env <environment>', 'environment')
      .option('--to <release-id>', 'the release to restore (default: the last Healthy one before what runs now)')
      .option('--reason <text>', 'why (required to roll back; kept in the audit log)')
      .option('--preview', 'show what would be restored and the diff, commit nothing'),
  ).action(
    act<{
      tenant: string;
      env: string;
      to?: string;
      reason?: string;
      preview?: boolean;
      wait?: boolean;
      timeout: string;
      interval: string;
      yes?: boolean;
    }>(async (rt, flags) => {
      // A rollback is not a preview by omission: without --preview it rolls back, and then it must say why.
      if (!flags.preview && !flags.reason?.trim()) {
        throw new CliError(
          '--reason is required to roll back (or --preview to see what would be restored)',
          EXIT.usage,
        );
      }
      const tenant = await tenantId(rt.api, rt.project(), flags.tenant);
      const body: RollbackRequest = { releaseId: flags.to, reason: flags.reason };
      const call = { path: { tenant, env: flags.env }, body };
      const preview = () => rt.api.post('/api/v2/tenants/{tenant}/envs/{env}/rollback/preview', call);
      if (flags.preview) return printValue(rt.out, rt.output === 'table' ? 'yaml' : rt.output, await preview());
      await confirm(rt, flags.yes, `roll back ${flags.tenant}/${flags.env} (${flags.reason})`, () =>
        showPreview(rt, preview),
      );
      const release = await rt.api.post('/api/v2/tenants/{tenant}/envs/{env}/rollback', call);
      if (flags.wait) return waitForRelease(rt, release.id, flags);
      printValue(rt.out, rt.output, release);
    }),
  );

  subcommand(
    program,
    'approvals',
    'Releases and promotions waiting for a decision, across projects (not your own); a project key: its project',
  ).action(
    act(async (rt) => {
      const caller = await whoAmI(rt.api);
      const me = caller.kind === 'user' ? (await rt.api.get('/api/v1/auth/me')).user.email : caller.actor;
      // A project key sees its own project only, and only the lists its scopes open (an `image:update` key: none).
      const slugs = caller.project
        ? [caller.project.slug]
        : (await allPages((cursor) => rt.api.get('/api/v2/projects', { query: { limit: 100, cursor } }))).map(
            (p) => p.slug,
          );
      const releasesOpen = mayCall(caller, 'GET', '/api/v2/projects/{slug}/releases');
      const promotionsOpen = mayCall(caller, 'GET', '/api/v2/projects/{slug}/promotions');
      const waiting: { kind: string; id: string; project: string; what: string; by: string }[] = [];
      for (const slug of slugs) {
        const releases = releasesOpen
          ? await rt.api.get('/api/v2/projects/{slug}/releases', {
              path: { slug },
              query: { status: 'PendingApproval', limit: 100 },
            })
          : { items: [] };
        for (const r of releases.items) {
          if (r.createdBy === me) continue;
          waiting.push({
            kind: 'release',
            id: r.id,
            project: slug,
            // Current -> proposed, as for promotions (a release recorded before its versions: its title only).
            what: `${r.downgrade ? 'DOWNGRADE ' : ''}${r.tenant}/${r.environment}: ${r.title}${
              r.versions?.length ? `: ${versionsText(r.versions)}` : ''
            }`,
            by: r.createdBy,
          });
        }
        if (!promotionsOpen) continue;
        const promotions = await rt.api.get('/api/v2/projects/{slug}/promotions', {
          path: { slug },
          query: { status: 'Blocked' },
        });
        for (const p of promotions.items) {
          if (p.createdBy === me || !(p.causes ?? []).some((c) => c.cause === 'approvals')) continue;
          waiting.push({
            kind: 'promotion',
            id: p.id,
            project: slug,
            // What the approver decides, current -> proposed, a downgrade said first.
            what: `${p.downgrade ? 'DOWNGRADE ' : ''}${p.sourceEnvironment ?? 'image'} -> ${p.targetEnvironment}: ${versionsText(p.versions ?? [])}`,
            by: p.createdBy,
          });
        }
      }
      printList(rt.out, rt.output, waiting, [
        { header: 'kind', value: (w) => w.kind },
        { header: 'id', value: (w) => w.id },
        { header: 'project', value: (w) => w.project },
        { header: 'what', value: (w) => w.what },
        { header: 'requested by', value: (w) => w.by },
      ]);
    }),
  );
}

/** A preview answer on standard error, before the question (standard output stays the action's answer). */
async function showPreview(rt: Runtime, preview: () => Promise<unknown>): Promise<void> {
  printValue(rt.err, 'yaml', await preview());
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `    ${line}` : line))
    .join('\n')
    .replace(/\n?$/, '\n');
}
