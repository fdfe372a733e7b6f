import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { breakGlassSessionEntries } from '../audit/audit-repository';
import { Conflict, Forbidden, Unprocessable } from '../errors';
import { auditActor, orgEntry, requireUser, uuidKey, type OrgCaller } from '../iam/caller';
import { scopedLookup, type OrgDomainDeps } from '../iam/cross-org';
import type { OrgRole } from '../iam/principal';
import { atLeast } from '../iam/role-authorizer';
import { findProjectBySlug, findProjectsByIds } from '../projects/project-repository';
import { SEARCH_ATTRIBUTES } from '../temporal/definitions';
import type { WorkflowStarter } from '../temporal/start-workflow';
import { breakGlassUpdateError } from './break-glass-errors';
import {
  allowedRoles,
  findSession,
  listSessions,
  storeAllowedRoles,
  type BreakGlassSession,
} from './break-glass-repository';
import {
  breakGlassOpenedUpdate,
  breakGlassWorkflowId,
  breakGlassWorkflowType,
  closeBreakGlassUpdate,
} from './break-glass-workflow-contract';

export interface BreakGlassOpenInput {
  justification: string;
  durationMinutes: number;
  scope?: { projects?: string[]; environments?: string[] };
}

export interface BreakGlassView extends Omit<BreakGlassSession, 'scope'> {
  status: 'open' | 'closed';
  scope: { projects: string[]; environments: string[] };
}

/** Most audit entries a session's page lists. */
const MAX_ACTIONS = 500;

export type BreakGlassService = ReturnType<typeof createBreakGlassService>;

export function createBreakGlassService(
  deps: OrgDomainDeps & { temporal: Client; workflows: WorkflowStarter; minuteMs: number },
) {
  const { db, audit } = deps;
  const sessionOf = scopedLookup(
    deps,
    {
      table: 'break_glass_sessions',
      column: 'id',
      parse: uuidKey,
      resourceType: 'break-glass session',
      category: 'break_glass',
    },
    findSession,
  );

  async function views(caller: OrgCaller, sessions: BreakGlassSession[]): Promise<BreakGlassView[]> {
    const projects = await findProjectsByIds(
      db,
      caller.organizationId,
      sessions.flatMap((s) => s.scope.projectIds),
    );
    const now = Date.now();
    return sessions.map(({ scope, ...s }) => ({
      ...s,
      // A session whose end passed is closed even before its workflow has written that down.
      status: s.closedAt === null && Date.parse(s.endsAt) > now ? 'open' : 'closed',
      scope: { projects: scope.projectIds.map((id) => projects.get(id)?.slug ?? id), environments: scope.environments },
    }));
  }

  return {
    /** Opens a session for the caller, whose organization role must be one the organization allows (default owner, admin). */
    async open(caller: OrgCaller, input: BreakGlassOpenInput): Promise<BreakGlassView> {
      const { userId } = requireUser(caller);
      if (caller.principal.actorType !== 'user') throw new Forbidden('only a user can open a break-glass session');
      const roles = await allowedRoles(db, caller.organizationId);
      if (!roles.includes(caller.role)) {
        throw new Forbidden(
          `your role (${caller.role}) may not open a break-glass session; allowed: ${roles.join(', ')}`,
        );
      }
      const justification = input.justification.trim();
      if (justification.length < 10) throw new Unprocessable('justification must be at least 10 characters');
      const projectIds: string[] = [];
      for (const slug of input.scope?.projects ?? []) {
        const project = await findProjectBySlug(db, caller.organizationId, slug);
        if (!project) throw new Unprocessable(`unknown project ${slug}`);
        projectIds.push(project.id);
      }
      const sessionId = randomUUID();
      const handle = await deps.workflows.start(breakGlassWorkflowType, {
        workflowId: breakGlassWorkflowId(sessionId),
        args: [
          {
            sessionId,
            organizationId: caller.organizationId,
            userId,
            actor: auditActor(caller),
            justification,
            durationMinutes: input.durationMinutes,
            durationMs: input.durationMinutes * deps.minuteMs,
            scope: { projectIds, environments: input.scope?.environments ?? [] },
          },
        ],
        labels: { organizationId: caller.organizationId },
        searchAttributes: [{ key: SEARCH_ATTRIBUTES.resourceStatus, value: 'opening' }],
        summary: `break-glass session of ${caller.principal.actor}`,
      });
      await handle.executeUpdate(breakGlassOpenedUpdate);
      return (await views(caller, [(await findSession(db, caller.organizationId, sessionId))!]))[0]!;
    },

    async list(caller: OrgCaller, page: { limit: number; cursor?: string }) {
      const result = await listSessions(db, caller.organizationId, page);
      return { items: await views(caller, result.items), nextCursor: result.nextCursor };
    },

    /** One session with the audit entries of the actions taken under it. */
    async get(caller: OrgCaller, id: string) {
      const session = await sessionOf(caller, id);
      const [view] = await views(caller, [session]);
      return { ...view!, actions: await breakGlassSessionEntries(db, caller.organizationId, session.id, MAX_ACTIONS) };
    },

    /** Closes a session by hand: its holder, or an admin or owner. */
    async close(caller: OrgCaller, id: string): Promise<BreakGlassView> {
      const session = await sessionOf(caller, id);
      if (session.userId !== caller.principal.userId && !atLeast(caller.role, 'admin')) {
        throw new Forbidden('only the holder of a break-glass session, an admin or an owner can close it');
      }
      if (session.closedAt !== null) throw new Conflict('break-glass session is closed');
      try {
        await deps.temporal.workflow
          .getHandle(session.workflowId)
          .executeUpdate(closeBreakGlassUpdate, { args: [{ actor: auditActor(caller) }] });
      } catch (err) {
        throw breakGlassUpdateError(err);
      }
      return (await views(caller, [(await findSession(db, caller.organizationId, session.id))!]))[0]!;
    },

    settings: async (caller: OrgCaller) => ({ allowedRoles: await allowedRoles(db, caller.organizationId) }),

    updateSettings(caller: OrgCaller, input: { allowedRoles: OrgRole[] }) {
      const roles = [...new Set(input.allowedRoles)];
      if (!roles.includes('owner')) throw new Unprocessable('allowedRoles must include owner');
      return db.transaction(async (trx) => {
        await storeAllowedRoles(trx, caller.organizationId, roles);
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'break_glass.settings.update',
            category: 'break_glass',
            resourceType: 'organization',
            resourceId: caller.organizationId,
            details: { allowedRoles: roles },
          }),
        );
        return { allowedRoles: roles };
      });
    },
  };
}
