import { STOP_THE_LINE_ID, verdictOf, type FreezeHit, type GovernanceGate } from './governance-verdict';
import { openSessionRows, sessionCovering } from '../break-glass/break-glass-repository';
import { readTogether } from '../db/rows-together';
import { activeFreezes } from '../freezes/freeze-evaluation';
import { definitionOf, freezeRowsFor, stopTheLineOf, stopTheLineRows } from '../freezes/freeze-repository';

/** A user id no session has: without an actor the sessions' part of the statement finds nothing. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

/**
 * What governed actions ask before they run (and again at commit time, in the caller's transaction): the freezes in
 * force for the target (the organization's stop-the-line switch, organization-wide and project windows) and the
 * actor's open break-glass session covering the project and environment. The grant is returned even when nothing is
 * frozen: break-glass also bypasses approval waits. Every governed action is gated the same way today; `action` is
 * part of the question so a freeze may later name the actions it stops.
 */
export function createGovernanceGate(clock: () => Date = () => new Date()): GovernanceGate {
  const gate: GovernanceGate = {
    async check(db, target, action, actorUserId, at = clock()) {
      const [verdict] = await gate.checkEach(db, target, [target], action, actorUserId, at);
      return verdict!;
    },
    async checkEach(db, project, targets, action, actorUserId, at = clock()) {
      if (targets.length === 0) return [];
      // The switch, the windows and the actor's open sessions in one statement (issue 46), whatever the pair count.
      const reads = gate.readsFor(db, project, actorUserId, at);
      return gate.verdictsFrom(reads, await readTogether(db, reads.parts), targets, action);
    },
    readsFor(db, project, actorUserId, at = clock()) {
      const parts = {
        line: stopTheLineRows(db, project.organizationId),
        windows: freezeRowsFor(db, project.organizationId, project.projectId),
        sessions: openSessionRows(db, { ...project, userId: actorUserId ?? NO_USER }, at),
      };
      return { project, actorUserId, at, parts };
    },
    verdictsFrom({ project, actorUserId, at }, read, targets) {
      const line = stopTheLineOf(read.line);
      const stopped: FreezeHit[] = line.enabled
        ? [
            {
              id: STOP_THE_LINE_ID,
              name: 'Stop the line',
              reason: line.reason,
              scope: 'organization',
              stopTheLine: true,
              startsAt: line.changedAt,
              endsAt: null,
            },
          ]
        : [];
      const windows = read.windows.map(definitionOf);
      return targets.map((scope) => {
        const target = { ...project, environment: scope.environment, tenants: scope.tenants };
        const freezes = [...stopped];
        for (const { freeze, occurrence } of activeFreezes(windows, target, at)) {
          freezes.push({
            id: freeze.id,
            name: freeze.name,
            reason: freeze.reason,
            scope: freeze.scope,
            stopTheLine: false,
            startsAt: occurrence.start.toISOString(),
            endsAt: occurrence.end.toISOString(),
          });
        }
        const session = actorUserId ? sessionCovering(read.sessions, scope.environment) : null;
        const breakGlass = session
          ? {
              sessionId: session.id,
              justification: session.justification,
              userId: session.userId,
              actor: session.actor,
              endsAt: session.endsAt,
            }
          : null;
        return verdictOf(freezes, breakGlass);
      });
    },
  };
  return gate;
}
