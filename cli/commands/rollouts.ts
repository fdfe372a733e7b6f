import type { Command } from 'commander';
import type { paths } from '../../client/openapi-types.generated';
import type { Rollout } from '../lib/api-types';
import { act, subcommand, waitOptions } from '../lib/command-kit';
import { confirm } from '../lib/confirm';
import { follow, type WaitFlags } from '../lib/follow';
import { list } from '../lib/lookups';
import { printList, printValue } from '../lib/output';
import type { Runtime } from '../lib/runtime';
import type { Observation } from '../lib/watch';

type Wave = Rollout['waves'][number];

/** What a wave is doing, in a few words: its state and, while it runs, what it waits for. */
function waveDetail(w: Wave): string {
  const failed = w.measurements.filter((m) => !m.passed).length;
  if (w.state === 'Soaking') return `soaking ${w.soakSeconds}s`;
  if (w.state === 'Verifying') return `verifying: ${w.measurements.length} measured, ${failed} failed`;
  if (w.state === 'AwaitingApproval') return `waiting for approval (${String(w.approvalGate)})`;
  if (w.state === 'Deploying') return `promotion ${w.promotionIds.at(-1) ?? '(starting)'}`;
  return w.reason ?? '';
}

/**
 * A rollout's progress as one line (the current wave, its tenants, its state and what it waits for); its end: Completed
 * is good; Halted (it then waits for resume or abort), Aborted and Superseded (a newer image rollout of the workload
 * replaced it, named in its status reason) end the wait badly.
 */
export function observeRollout(r: Rollout): Observation {
  const wave = r.waves[Math.min(r.currentWave, r.waves.length - 1)];
  const where = wave
    ? `wave ${Math.min(r.currentWave, r.waves.length - 1) + 1}/${r.waves.length} (${wave.name}: ${wave.tenants.join(', ')})`
    : 'no waves';
  const detail = wave ? waveDetail(wave) : '';
  const line = `${r.status} ${where}${wave ? ` ${wave.state}` : ''}${detail ? ` — ${detail}` : ''}`;
  const name = `rollout ${r.id} (${r.sourceEnvironment ?? 'image'} -> ${r.environment}, ${r.version})`;
  if (r.status === 'Completed') return { line, end: { ok: true, message: `${name} completed: every wave verified` } };
  if (r.status === 'Halted') {
    const reason = r.statusReason ?? 'no reason given';
    return { line, end: { ok: false, message: `${name} halted: ${reason}; resume or abort it` } };
  }
  if (r.status === 'Aborted') return { line, end: { ok: false, message: `${name} aborted: ${r.statusReason ?? ''}` } };
  if (r.status === 'Superseded')
    return { line, end: { ok: false, message: `${name} ${r.statusReason ?? 'superseded'}` } };
  return { line };
}

export function waitForRollout(rt: Runtime, id: string, flags: WaitFlags): Promise<number> {
  rt.err.write(`following rollout ${id} (Ctrl-C stops following, not the rollout)\n`);
  return follow(rt, () => rt.api.get('/api/v2/rollouts/{id}', { path: { id } }), observeRollout, flags);
}

/** The waves of a rollout as rows: name, tenants, state and what each waits for or how it ended. */
export function printWaves(rt: Runtime, r: Rollout): void {
  if (rt.output !== 'table') return printValue(rt.out, rt.output, r);
  rt.out.write(`rollout ${r.id}: ${r.sourceEnvironment ?? 'image'} -> ${r.environment}, ${r.version}, ${r.status}\n`);
  if (r.statusReason) rt.out.write(`  ${r.statusReason}\n`);
  printList(rt.out, 'table', r.waves, [
    { header: 'wave', value: (w) => w.name },
    { header: 'tenants', value: (w) => w.tenants.join(',') },
    { header: 'state', value: (w) => w.state },
    { header: 'detail', value: (w) => waveDetail(w) },
  ]);
}

type PromotionPreview =
  paths['/api/v2/projects/{slug}/promotion/preview']['post']['responses'][200]['content']['application/json'];

/** `delivery promote --preview`: what moves, then each wave of the target's plan and what it waits for. */
export function printWavePreview(rt: Runtime, p: PromotionPreview): void {
  if (rt.output !== 'table') return printValue(rt.out, rt.output, p);
  const moves = p.moves.map((m) => `${m.tenant} (${m.changes.map((c) => `${c.workload} ${c.tag}`).join(', ')})`);
  rt.out.write(`${p.sourceEnvironment} -> ${p.targetEnvironment} moves ${moves.join('; ')}\n`);
  if (!p.rollout)
    return void rt.out.write(`${p.targetEnvironment} has no rollout plan: one promotion, every tenant at once\n`);
  const source = p.rollout.plan === 'environment' ? `${p.targetEnvironment}'s plan` : 'the given plan';
  rt.out.write(`a rollout in ${p.rollout.waves.length} waves (${source}):\n`);
  p.rollout.waves.forEach((w, i) => {
    const waits = w.waitsFor.length > 0 ? w.waitsFor.join('; ') : 'nothing';
    rt.out.write(`  ${i + 1}. ${w.name}: ${w.tenants.join(', ') || '(no tenant)'} — waits for ${waits}\n`);
  });
}

/** `delivery rollout`: progressive delivery across tenants in waves (docs/rollouts.md). */
export function registerRollouts(program: Command): void {
  const rollout = subcommand(program, 'rollout', 'Rollouts in waves: start, follow, pause, resume, abort, approve');

  waitOptions(
    subcommand(rollout, 'start', "Roll the source environment's versions out to the target, wave by wave", [
      'delivery rollout start --from staging --to prod --wait',
      'delivery rollout start --from staging --to prod --services api,web',
    ]),
  )
    .requiredOption('--from <environment>', 'source environment (its versions move)')
    .requiredOption('--to <environment>', "target environment (its rollout plan's waves)")
    .option('--services <list>', 'only these services')
    .action(
      act<WaitFlags & { from: string; to: string; services?: string }>(async (rt, flags) => {
        const services = list(flags.services);
        const started = await rt.api.post('/api/v2/projects/{slug}/rollouts', {
          path: { slug: rt.project() },
          body: {
            sourceEnvironment: flags.from,
            targetEnvironment: flags.to,
            ...(services ? { services } : {}),
          },
        });
        if (!flags.wait) return printWaves(rt, started);
        return waitForRollout(rt, started.id, flags);
      }),
    );

  subcommand(rollout, 'list', "The project's rollouts, newest first").action(
    act(async (rt) => {
      const page = await rt.api.get('/api/v2/projects/{slug}/rollouts', { path: { slug: rt.project() } });
      printList(
        rt.out,
        rt.output,
        page.items,
        [
          { header: 'id', value: (r) => r.id },
          { header: 'from -> to', value: (r) => `${r.sourceEnvironment ?? 'image'} -> ${r.environment}` },
          { header: 'version', value: (r) => r.version },
          { header: 'status', value: (r) => r.status },
          { header: 'wave', value: (r) => `${Math.min(r.currentWave + 1, r.waves.length)}/${r.waves.length}` },
          { header: 'created', value: (r) => r.createdAt },
        ],
        page,
      );
    }),
  );

  waitOptions(subcommand(rollout, 'get', 'One rollout with its waves').argument('<id>')).action(
    act<WaitFlags>(async (rt, flags, [id]) => {
      if (flags.wait) return waitForRollout(rt, id!, flags);
      printWaves(rt, await rt.api.get('/api/v2/rollouts/{id}', { path: { id: id! } }));
    }),
  );

  for (const verb of ['pause', 'resume', 'abort', 'skip-soak'] as const) {
    subcommand(
      rollout,
      verb,
      `${verb === 'skip-soak' ? "Skip the current wave's soak" : `${verb[0]!.toUpperCase()}${verb.slice(1)} a rollout`} (audited with the reason)`,
    )
      .argument('<id>')
      .requiredOption('-m, --reason <text>', 'why (kept in the audit log)')
      .option('-y, --yes', 'do not ask')
      .action(
        act<{ reason: string; yes?: boolean }>(async (rt, flags, [id]) => {
          if (verb === 'abort') await confirm(rt, flags.yes, `abort rollout ${id!}`);
          const answer = await rt.api.post(`/api/v2/rollouts/{id}/${verb}`, {
            path: { id: id! },
            body: { reason: flags.reason },
          });
          printWaves(rt, answer);
        }),
      );
  }

  subcommand(rollout, 'approve', "Approve the current wave's gate (not your own rollout's)")
    .argument('<id>')
    .option('-m, --comment <text>', 'comment')
    .action(
      act<{ comment?: string }>(async (rt, flags, [id]) => {
        const answer = await rt.api.post('/api/v2/rollouts/{id}/approve', {
          path: { id: id! },
          body: flags.comment ? { comment: flags.comment } : {},
        });
        printWaves(rt, answer);
      }),
    );
}
