import type { Command } from 'commander';
import type { PromotionRequestRequest, ReleaseApproveRequest } from '../../api/request-types.generated';
import { versionsText } from '../../src/deployments/version-change';
import { act, subcommand, waitOptions } from '../lib/command-kit';
import { enc, list, type Page } from '../lib/lookups';
import { printList, printValue } from '../lib/output';
import { observePromotion, type PromotionView } from '../lib/release-progress';
import type { Runtime } from '../lib/runtime';
import { parseDuration, watch } from '../lib/watch';

interface WaitFlags {
  wait?: boolean;
  timeout: string;
  interval: string;
}

function waitForPromotion(rt: Runtime, id: string, flags: WaitFlags): Promise<number> {
  rt.err.write(`following promotion ${id} (Ctrl-C stops following, not the promotion)\n`);
  return watch(async () => observePromotion(await rt.api.get<PromotionView>(`/api/v2/promotions/${enc(id)}`)), {
    timeoutMs: parseDuration(flags.timeout),
    intervalMs: parseDuration(flags.interval),
    out: rt.out,
  });
}

function summary(p: PromotionView) {
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

export function registerPromotions(program: Command): void {
  waitOptions(
    subcommand(
      program,
      'promote',
      "Promote the source environment's versions to the target (blocked while a cause holds)",
      [
        'delivery promote --from staging --to prod --wait',
        'delivery promote --from staging --to prod --tenants acme,globex --services web',
      ],
    )
      .requiredOption('--from <environment>', 'source environment')
      .requiredOption('--to <environment>', 'target environment')
      .option('--tenants <slugs>', 'only these tenants (comma-separated)')
      .option('--services <names>', 'only these services (comma-separated)'),
  ).action(
    act<WaitFlags & { from: string; to: string; tenants?: string; services?: string }>(async (rt, flags) => {
      const tenants = list(flags.tenants);
      const services = list(flags.services);
      const body: PromotionRequestRequest = {
        sourceEnvironment: flags.from,
        targetEnvironment: flags.to,
        ...(tenants ? { tenants: tenants as PromotionRequestRequest['tenants'] } : {}),
        ...(services ? { services: services as PromotionRequestRequest['services'] } : {}),
      };
      const created = await rt.api.post<PromotionView>(`/api/v2/projects/${enc(rt.project())}/promotion/request`, body);
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
        const page = await rt.api.get<Page<PromotionView>>(`/api/v2/projects/${enc(rt.project())}/promotions`, {
          status: flags.status,
          targetEnvironment: flags.to,
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
      const detail = await rt.api.get<PromotionView>(`/api/v2/promotions/${enc(id!)}`);
      printValue(rt.out, rt.output, rt.output === 'table' ? summary(detail) : detail);
    }),
  );
  for (const verb of ['approve', 'cancel'] as const) {
    subcommand(promotion, verb, `${verb === 'approve' ? 'Approve' : 'Cancel'} a promotion`)
      .argument('<id>')
      .option('-m, --comment <text>', 'comment (the reason, for cancel)')
      .action(
        act<{ comment?: string }>(async (rt, flags, [id]) => {
          const body: ReleaseApproveRequest | { reason?: string } =
            verb === 'approve' ? { comment: flags.comment } : { reason: flags.comment };
          const answer = await rt.api.post<PromotionView>(`/api/v2/promotions/${enc(id!)}/${verb}`, body);
          printValue(rt.out, rt.output, rt.output === 'table' ? summary(answer) : answer);
        }),
      );
  }
}
