import type { Command } from 'commander';
import { printWavePreview, printWaves, waitForRollout } from './rollouts';
import type { PromotionRequestRequest, ReleaseApproveRequest } from '../../api/request-types.generated';
import { versionsText } from '../../client/versions-text';
import { CliError, EXIT } from '../lib/api-error';
import { act, subcommand, waitOptions } from '../lib/command-kit';
import { confirm } from '../lib/confirm';
import { list } from '../lib/lookups';
import { printList, printValue } from '../lib/output';
import type { PromotionSummary } from '../lib/api-types';
import { observePromotion, type PromotionView } from '../lib/release-progress';
import type { Runtime } from '../lib/runtime';
import { follow } from '../lib/follow';

interface WaitFlags {
  wait?: boolean;
  timeout: string;
  interval: string;
}

function waitForPromotion(rt: Runtime, id: string, flags: WaitFlags): Promise<number> {
  rt.err.write(`following promotion ${id} (Ctrl-C stops following, not the promotion)\n`);
  return follow(rt, () => rt.api.get('/api/v2/promotions/{id}', { path: { id } }), observePromotion, flags);
}

function summary(p: PromotionView | PromotionSummary) {
  return {
    id: p.id,
    from: p.sourceEnvironment,
    to: p.targetEnvironment,
    versions: versionsText(p.versions ?? []) || null,
    downgrade: p.downgrade ? 'yes: a target would run an older version' : 'no',
    status: p.status,
    causes: (p.causes ?? []).map((c) => `${c.cause}: ${c.message}`).join('; ') || null,
    commit: p.commitSha,
  };
}

const IN_FLIGHT = ['Evaluating', 'Blocked', 'Executing', 'Syncing'] as const;

/**
 * A second promotion of the same source and target while one is still in flight would stack a second copy of the same
 * versions behind the first: refused, naming the one to follow instead.
 */
async function refuseSecondPromotion(rt: Runtime, project: string, from: string, to: string): Promise<void> {
  for (const status of IN_FLIGHT) {
    const page = await rt.api.get('/api/v2/projects/{slug}/promotions', {
      path: { slug: project },
      query: { status, targetEnvironment: to, limit: 100 },
    });
    const running = page.items.find((p) => p.sourceEnvironment === from);
    if (running) {
      throw new CliError(
        `a promotion ${from} -> ${to} is already in flight (${running.id}, ${running.status}): follow it with ` +
          `delivery promotion get ${running.id} --wait, or cancel it first`,
        EXIT.failed,
      );
    }
  }
}

interface PromoteFlags {
  from: string;
  to: string;
  tenants?: string;
  services?: string;
  rollout?: string;
  preview?: boolean;
  yes?: boolean;
}

export function registerPromotions(program: Command): void {
  waitOptions(
    subcommand(
      program,
      'promote',
      "Promote the source environment's versions to the target (blocked while a cause holds)",
      [
        'delivery promote --from staging --to prod --wait',
        'delivery promote --from staging --to prod --tenants acme,globex --services web',
        'delivery promote --from staging --to prod --preview',
      ],
    )
      .requiredOption('--from <environment>', 'source environment')
      .requiredOption('--to <environment>', 'target environment')
      .option('--tenants <slugs>', 'only these tenants (comma-separated)')
      .option('--services <names>', 'only these services (comma-separated)')
      .option('--preview', "show what would move and the waves of the target's rollout plan; change nothing")
      .option('--rollout <plan|none>', "none: every tenant at once over the target's rollout plan (break-glass only)"),
  ).action(
    act<WaitFlags & PromoteFlags>(async (rt, flags) => {
      const project = rt.project();
      const tenants = list(flags.tenants);
      const services = list(flags.services);
      const body: PromotionRequestRequest = {
        sourceEnvironment: flags.from,
        targetEnvironment: flags.to,
        ...(tenants ? { tenants: tenants as PromotionRequestRequest['tenants'] } : {}),
        ...(services ? { services: services as PromotionRequestRequest['services'] } : {}),
        ...(flags.rollout ? { rollout: flags.rollout as PromotionRequestRequest['rollout'] } : {}),
      };
      if (flags.preview) {
        const path = { slug: project };
        return printWavePreview(rt, await rt.api.post('/api/v2/projects/{slug}/promotion/preview', { path, body }));
      }
      await refuseSecondPromotion(rt, project, flags.from, flags.to);
      const target = await rt.api.get('/api/v2/projects/{slug}/environments/{environment}', {
        path: { slug: project, environment: flags.to },
      });
      if (target.production) {
        const what = [flags.tenants && `tenants ${flags.tenants}`, flags.services && `services ${flags.services}`];
        const scope = what.filter(Boolean).join(', ');
        await confirm(
          rt,
          flags.yes,
          `promote ${flags.from} -> ${flags.to} (a production environment) in ${project}${scope ? `, ${scope}` : ''}`,
        );
      }
      const created = await rt.api.post('/api/v2/projects/{slug}/promotion/request', {
        path: { slug: project },
        body,
      });
      // A target with a rollout plan: the request started a rollout in the plan's waves.
      if ('rolloutId' in created) {
        rt.err.write(`${flags.to} has a rollout plan: started rollout ${created.rolloutId} in its waves\n`);
        return flags.wait ? waitForRollout(rt, created.rolloutId, flags) : printWaves(rt, created.rollout);
      }
      if (!flags.wait) return printValue(rt.out, rt.output, rt.output === 'table' ? summary(created) : created);
      rt.err.write(`requested promotion ${created.id}\n`);
      return waitForPromotion(rt, created.id, flags);
    }),
  );

  const promotion = subcommand(program, 'promotion', 'List, follow and decide promotions');
  subcommand(promotion, 'list', 'Promotions of the project, newest first')
    .option('--status <status>', 'only this status')
    .option('--to <environment>', 'only this target environment')
    .action(
      act<{ status?: string; to?: string }>(async (rt, flags) => {
        const page = await rt.api.get('/api/v2/projects/{slug}/promotions', {
          path: { slug: rt.project() },
          query: { status: flags.status, targetEnvironment: flags.to },
        });
        printList(
          rt.out,
          rt.output,
          page.items.map(summary),
          ['id', 'from', 'to', 'status', 'causes'].map((key) => ({
            header: key,
            value: (p: ReturnType<typeof summary>) => p[key as keyof typeof p],
          })),
          page,
        );
      }),
    );
  waitOptions(subcommand(promotion, 'get', 'One promotion with every blocking cause').argument('<id>')).action(
    act<WaitFlags>(async (rt, flags, [id]) => {
      if (flags.wait) return waitForPromotion(rt, id!, flags);
      const detail = await rt.api.get('/api/v2/promotions/{id}', { path: { id: id! } });
      printValue(rt.out, rt.output, rt.output === 'table' ? summary(detail) : detail);
    }),
  );
  for (const verb of ['approve', 'cancel'] as const) {
    subcommand(promotion, verb, `${verb === 'approve' ? 'Approve' : 'Cancel'} a promotion`)
      .argument('<id>')
      .option('-m, --comment <text>', 'comment (the reason, for cancel)')
      .action(
        act<{ comment?: string; yes?: boolean }>(async (rt, flags, [id]) => {
          if (verb === 'cancel') await confirm(rt, flags.yes, `cancel promotion ${id!}`);
          const body: ReleaseApproveRequest | { reason?: string } =
            verb === 'approve' ? { comment: flags.comment } : { reason: flags.comment };
          const answer = await rt.api.post(`/api/v2/promotions/{id}/${verb}`, { path: { id: id! }, body });
          printValue(rt.out, rt.output, rt.output === 'table' ? summary(answer) : answer);
        }),
      );
  }
}
