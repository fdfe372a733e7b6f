import type { Command } from 'commander';
import type {
  AuditLogsQueryRequest,
  BreakGlassOpenRequest,
  FreezeCreateRequest,
  StopTheLineRequest,
} from '../../api/request-types.generated';
import { confirm } from '../lib/confirm';
import { act, subcommand } from '../lib/command-kit';
import { list } from '../lib/lookups';
import { acknowledge, printList, printValue } from '../lib/output';
import type { Runtime } from '../lib/runtime';

/** The organization's freezes, or a project's (`--project`). */
const freezesOf = (rt: Runtime, project?: string) =>
  project ? rt.api.get('/api/v2/projects/{slug}/freezes', { path: { slug: project } }) : rt.api.get('/api/v2/freezes');

export function registerGovernance(program: Command): void {
  const freeze = subcommand(program, 'freeze', 'Freeze windows (organization-wide, or of the project with --project)');
  subcommand(freeze, 'list', 'Freeze windows with their active flag').action(
    act<{ project?: string }>(async (rt, flags) => {
      const answer = await freezesOf(rt, flags.project);
      printList(
        rt.out,
        rt.output,
        answer.items,
        [
          { header: 'id', value: (f) => f.id },
          { header: 'name', value: (f) => f.name },
          { header: 'active', value: (f) => (f.active ? 'yes' : 'no') },
          { header: 'window', value: (f) => f.rrule ?? `${f.startsAt ?? '-'} .. ${f.endsAt ?? '-'}` },
          { header: 'reason', value: (f) => f.reason },
        ],
        answer,
      );
    }),
  );
  subcommand(freeze, 'create', 'A one-off window (--from/--until) or a recurring one (--rrule, --tz, --minutes)', [
    'delivery freeze create --name "year end" --reason "no changes" --from 2026-12-24T00:00:00Z --until 2027-01-02T00:00:00Z --envs prod',
    'delivery freeze create --name weekends --reason "on-call rest" --rrule "FREQ=WEEKLY;BYDAY=SA" --tz Europe/Berlin --minutes 2880',
  ])
    .requiredOption('--name <name>', 'name')
    .requiredOption('--reason <text>', 'reason shown to whoever is refused')
    .option('--from <time>', 'start (ISO 8601)')
    .option('--until <time>', 'end (ISO 8601)')
    .option('--rrule <rule>', 'RFC 5545 recurrence rule')
    .option('--tz <zone>', 'IANA time zone of the rule')
    .option('--minutes <n>', 'duration of each occurrence in minutes')
    .option('--envs <list>', 'only these environments')
    .option('--tenants <list>', 'only these tenants')
    .action(
      act<{
        project?: string;
        name: string;
        reason: string;
        from?: string;
        until?: string;
        rrule?: string;
        tz?: string;
        minutes?: string;
        envs?: string;
        tenants?: string;
      }>(async (rt, flags) => {
        const body: FreezeCreateRequest = {
          name: flags.name,
          reason: flags.reason,
          startsAt: flags.from,
          endsAt: flags.until,
          rrule: flags.rrule,
          timeZone: flags.tz,
          durationMinutes: flags.minutes === undefined ? undefined : Number(flags.minutes),
          environments: list(flags.envs),
          tenants: list(flags.tenants),
        };
        const created = flags.project
          ? await rt.api.post('/api/v2/projects/{slug}/freezes', { path: { slug: flags.project }, body })
          : await rt.api.post('/api/v2/freezes', { body });
        printValue(rt.out, rt.output, created);
      }),
    );
  subcommand(freeze, 'delete', 'Delete a freeze window')
    .argument('<id>')
    .action(
      act<{ project?: string }>(async (rt, flags, [id]) => {
        if (flags.project) {
          await rt.api.delete('/api/v2/projects/{slug}/freezes/{id}', { path: { slug: flags.project, id: id! } });
        } else {
          await rt.api.delete('/api/v2/freezes/{id}', { path: { id: id! } });
        }
        acknowledge(rt, `freeze ${id} deleted`, { deleted: id });
      }),
    );

  subcommand(program, 'stop-the-line', 'Freeze every project of the organization (on), or release it (off)', [
    'delivery stop-the-line on --reason "incident 4711"',
    'delivery stop-the-line off',
  ])
    .argument('<state>', 'on or off')
    .option('--reason <text>', 'why')
    .action(
      act<{ reason?: string }>(async (rt, flags, [state]) => {
        const body: StopTheLineRequest = { enabled: state === 'on', reason: flags.reason };
        printValue(rt.out, rt.output, await rt.api.put('/api/v2/freezes/stop-the-line', { body }));
      }),
    );

  const breakGlass = subcommand(
    program,
    'break-glass',
    'Emergency sessions that bypass approvals and freezes (audited)',
  );
  subcommand(breakGlass, 'open', 'Open a session for yourself', [
    'delivery break-glass open --justification "INC-42: prod down" --minutes 30 --projects shop',
  ])
    .requiredOption('--justification <text>', 'why (kept on every action done under the session)')
    .requiredOption('--minutes <n>', 'how long it stays open')
    .option('--projects <list>', 'only these projects')
    .option('--envs <list>', 'only these environments')
    .action(
      act<{ justification: string; minutes: string; projects?: string; envs?: string; yes?: boolean }>(
        async (rt, flags) => {
          const where = [flags.projects && `projects ${flags.projects}`, flags.envs && `environments ${flags.envs}`];
          await confirm(
            rt,
            flags.yes,
            `open a break-glass session for ${flags.minutes} min bypassing approvals and freezes ` +
              `(${where.filter(Boolean).join(', ') || 'every project and environment'})`,
          );
          const body: BreakGlassOpenRequest = {
            justification: flags.justification,
            durationMinutes: Number(flags.minutes),
            scope: { projects: list(flags.projects), environments: list(flags.envs) },
          };
          printValue(rt.out, rt.output, await rt.api.post('/api/v2/break-glass', { body }));
        },
      ),
    );
  subcommand(breakGlass, 'list', 'Sessions, open and closed').action(
    act(async (rt) => {
      const answer = await rt.api.get('/api/v2/break-glass');
      printList(
        rt.out,
        rt.output,
        answer.items,
        [
          { header: 'id', value: (s) => s.id },
          { header: 'status', value: (s) => s.status },
          { header: 'justification', value: (s) => s.justification },
        ],
        answer,
      );
    }),
  );
  subcommand(breakGlass, 'close', 'Close a session by hand')
    .argument('<id>')
    .action(
      act(async (rt, _flags, [id]) => {
        printValue(rt.out, rt.output, await rt.api.post('/api/v2/break-glass/{id}/close', { path: { id: id! } }));
      }),
    );

  subcommand(program, 'audit', "Query the organization's audit log (newest first)", [
    'delivery audit --action release.approve --from 2026-11-01T00:00:00Z',
    'delivery audit --actor-type service_account --status blocked -o json',
    'delivery audit --break-glass-session <session-id> -o json',
  ])
    .option('--from <time>', 'entries at or after')
    .option('--to <time>', 'entries before')
    .option('--action <action>', 'event type, e.g. release.deploy')
    .option('--actor <actor>', 'who')
    .option('--actor-type <type>', 'user, service_account or system')
    .option('--resource-type <type>', 'e.g. release')
    .option('--resource-id <id>', 'one resource')
    .option('--project-id <id>', 'one project')
    .option('--status <status>', 'success, failure or blocked')
    .option(
      '--break-glass-session <id>',
      'one break-glass session: its opening and closing and every action taken under it',
    )
    .option('--limit <n>', 'page size', '50')
    .option('--cursor <cursor>', 'next page')
    .action(
      act<{
        from?: string;
        to?: string;
        action?: string;
        actor?: string;
        actorType?: string;
        resourceType?: string;
        resourceId?: string;
        projectId?: string;
        status?: string;
        breakGlassSession?: string;
        limit: string;
        cursor?: string;
      }>(async (rt, flags) => {
        const query: AuditLogsQueryRequest = {
          from: flags.from,
          to: flags.to,
          action: flags.action,
          actor: flags.actor,
          actorType: flags.actorType as AuditLogsQueryRequest['actorType'],
          resourceType: flags.resourceType,
          resourceId: flags.resourceId,
          projectId: flags.projectId,
          status: flags.status as AuditLogsQueryRequest['status'],
          breakGlassSessionId: flags.breakGlassSession,
          limit: flags.limit,
          cursor: flags.cursor,
        };
        const page = await rt.api.get('/api/v2/audit-logs', { query: { ...query } });
        printList(
          rt.out,
          rt.output,
          page.items,
          [
            { header: 'at', value: (e) => e.createdAt },
            { header: 'action', value: (e) => e.action },
            { header: 'actor', value: (e) => e.actor },
            { header: 'status', value: (e) => e.status },
            { header: 'resource', value: (e) => `${e.resourceType}/${e.resourceId}` },
          ],
          page,
        );
        if (rt.output === 'table' && page.nextCursor) rt.err.write(`more: --cursor ${page.nextCursor}\n`);
      }),
    );
}
