import type { Command } from 'commander';
import { act, subcommand } from '../lib/command-kit';
import type { ChangedTarget } from '../lib/api-types';
import { allPages } from '../lib/lookups';
import { printList } from '../lib/output';

/** One line of the table: a version change or a health transition of an Application. */
interface Line {
  at: string;
  target: string;
  what: 'version' | 'health';
  from: string | null;
  to: string | null;
  cause: string | null;
  actor: string | null;
  commit: string | null;
}

function linesOf(items: ChangedTarget[]): Line[] {
  const lines = items.flatMap((item) => {
    const target = `${item.tenant}/${item.environment}/${item.service}`;
    return [
      ...item.changes.map((c) => ({
        at: c.at,
        target,
        what: 'version' as const,
        from: c.from,
        to: c.to,
        cause: c.cause,
        actor: c.by.actor,
        commit: c.revision.slice(0, 12),
      })),
      ...item.health.map((h) => ({
        at: h.at,
        target,
        what: 'health' as const,
        from: h.from,
        to: h.version ? `${h.to ?? ''} (${h.version})` : h.to,
        cause: null,
        actor: null,
        commit: null,
      })),
    ];
  });
  return lines.sort((a, b) => (a.at === b.at ? a.target.localeCompare(b.target) : a.at.localeCompare(b.at)));
}

/** `delivery changes`: what changed per Application between two instants (docs/deployments.md). */
export function registerDeploymentChanges(program: Command): void {
  subcommand(
    program,
    'changes',
    'What changed between two instants: versions from -> to with cause, actor and commit; health transitions',
    [
      'delivery changes --from 2026-11-28T13:00:00Z --to 2026-11-28T14:05:00Z',
      'delivery changes --from 2026-11-28T13:00:00Z --env prod -o json',
    ],
  )
    .requiredOption('--from <instant>', 'start of the window (ISO 8601 with a time zone; excluded)')
    .option('--to <instant>', 'end of the window (included; default now; at most 31 days after --from)')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--env <environment>', 'only this environment')
    .option('--service <service>', 'only this service')
    .action(
      act<{ from: string; to?: string; tenant?: string; env?: string; service?: string }>(async (rt, flags) => {
        const query = {
          from: flags.from,
          to: flags.to,
          tenant: flags.tenant,
          environment: flags.env,
          service: flags.service,
        };
        const items = await allPages((cursor) =>
          rt.api.get('/api/v2/projects/{slug}/deployments/changes', {
            path: { slug: rt.project() },
            query: { ...query, limit: 100, cursor },
          }),
        );
        printList(
          rt.out,
          rt.output,
          linesOf(items),
          [
            { header: 'at', value: (l) => l.at },
            { header: 'target', value: (l) => l.target },
            { header: 'what', value: (l) => l.what },
            { header: 'from', value: (l) => l.from },
            { header: 'to', value: (l) => l.to },
            { header: 'cause', value: (l) => l.cause },
            { header: 'actor', value: (l) => l.actor },
            { header: 'commit', value: (l) => l.commit },
          ],
          { from: flags.from, to: flags.to ?? null, items },
        );
        const truncated = items.filter((i) => i.truncated).map((i) => `${i.tenant}/${i.environment}/${i.service}`);
        if (truncated.length > 0 && rt.output === 'table') {
          rt.out.write(`more changes than listed for ${truncated.join(', ')}: ask for a shorter window\n`);
        }
      }),
    );
}
