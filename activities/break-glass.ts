import type { AuditService } from '../src/audit/audit-service';
import type { AuditActor } from '../src/audit/types';
import type { Db } from '../src/db/knex';
import { closeSession, findSession, insertSession, sessionClosedAt } from '../src/break-glass/break-glass-repository';
import type { BreakGlassOpened, BreakGlassWorkflowInput } from '../src/break-glass/break-glass-workflow-contract';
import { DOMAIN_EVENT, recordDomainEvent } from '../src/events/domain-event-repository';

export interface BreakGlassActivityDeps {
  db: Db;
  audit: AuditService;
}

/**
 * Opening and closing a break-glass session: the row, its audit entry (category break_glass) and, on opening, the
 * `break_glass.opened` event (owners are notified through the notifications outbox) in one transaction. Each
 * recognises its own earlier committed attempt and changes nothing the second time.
 */
export function createBreakGlassActivities({ db, audit }: BreakGlassActivityDeps) {
  return {
    openBreakGlass(
      input: BreakGlassWorkflowInput & { workflowId: string; openedAt: string; endsAt: string },
    ): Promise<BreakGlassOpened> {
      return db.transaction(async (trx) => {
        const fresh = await insertSession(trx, {
          id: input.sessionId,
          organizationId: input.organizationId,
          userId: input.userId,
          actor: input.actor.actor,
          justification: input.justification,
          durationMinutes: input.durationMinutes,
          scope: input.scope,
          workflowId: input.workflowId,
          openedAt: input.openedAt,
          endsAt: input.endsAt,
        });
        const session = (await findSession(trx, input.organizationId, input.sessionId))!;
        if (fresh) {
          const details = {
            sessionId: session.id,
            justification: session.justification,
            durationMinutes: session.durationMinutes,
            scope: session.scope,
            endsAt: session.endsAt,
          };
          const entry = await audit.append(trx, {
            organizationId: input.organizationId,
            ...input.actor,
            action: 'break_glass.open',
            category: 'break_glass',
            resourceType: 'break_glass_session',
            resourceId: session.id,
            workflowId: input.workflowId,
            details,
          });
          await recordDomainEvent(trx, {
            organizationId: input.organizationId,
            projectId: session.scope.projectIds.length === 1 ? session.scope.projectIds[0]! : null,
            type: DOMAIN_EVENT.breakGlassOpened,
            payload: {
              sessionId: session.id,
              actor: session.actor,
              justification: session.justification,
              endsAt: session.endsAt,
              auditId: entry.id,
            },
          });
        }
        return { sessionId: session.id, openedAt: session.openedAt, endsAt: session.endsAt };
      });
    },

    /** Closes the session (by hand or at the end of its duration); returns when it closed. */
    closeBreakGlass(input: {
      sessionId: string;
      workflowId: string;
      actor: AuditActor;
      reason: 'closed' | 'expired';
    }): Promise<string> {
      return db.transaction(async (trx) => {
        const closed = await closeSession(trx, input.sessionId, input.actor.actor, input.reason);
        if (!closed) return (await sessionClosedAt(trx, input.sessionId)) ?? new Date().toISOString();
        await audit.append(trx, {
          organizationId: closed.organizationId,
          ...input.actor,
          action: 'break_glass.close',
          category: 'break_glass',
          resourceType: 'break_glass_session',
          resourceId: closed.id,
          workflowId: input.workflowId,
          details: { sessionId: closed.id, reason: input.reason },
        });
        return closed.closedAt!;
      });
    },
  };
}
