import type { Page, PageRequest } from '../db/pagination';
import { Forbidden, InvalidInput, NotFound } from '../errors';
import { orgEntry, uuidKey, type OrgCaller } from '../iam/caller';
import type { OrgDomainDeps } from '../iam/cross-org';
import type { ProjectService } from '../projects/project-service';
import type { DispatcherPort } from './channel-service';
import { canonicalSelector, isEventSelector } from './event-catalog';
import {
  DEFAULT_PREFERENCES,
  findPreferences,
  listInbox,
  markRead,
  notificationExists,
  unreadCount,
  upsertPreferences,
  type InAppNotification,
  type Preferences,
} from './inbox-repository';

export interface PreferencesInput {
  events: string[];
  channels?: Record<string, string[]>;
  projects?: string[];
  digestIntervalMs?: number | null;
}

export type InboxService = ReturnType<typeof createInboxService>;

/** Each member's in-app notifications and personal preferences (/api/v2/notifications, .../preferences). */
export function createInboxService(
  deps: OrgDomainDeps & { projects: Pick<ProjectService, 'namedProjectOf'>; dispatcher: DispatcherPort },
) {
  const { db } = deps;
  /** Machine identities (service-account tokens) have no inbox: they read an empty one. */
  const person = (caller: OrgCaller): string | null =>
    caller.principal.kind === 'user' ? caller.principal.userId : null;
  const empty = { items: [], nextCursor: null };
  const selectors = (list: string[]) => {
    const bad = list.find((e) => !isEventSelector(e));
    if (bad !== undefined) throw new InvalidInput(`unknown event or group: ${bad}`);
    return list.map(canonicalSelector);
  };

  return {
    async list(caller: OrgCaller, page: PageRequest, unreadOnly: boolean): Promise<Page<InAppNotification>> {
      const userId = person(caller);
      return userId ? listInbox(db, caller.organizationId, userId, page, unreadOnly) : empty;
    },

    async unreadCount(caller: OrgCaller) {
      const userId = person(caller);
      return { unread: userId ? await unreadCount(db, caller.organizationId, userId) : 0 };
    },

    async markRead(caller: OrgCaller, id: string): Promise<void> {
      const key = uuidKey(id);
      const userId = person(caller);
      // Another member's notification answers like a missing one.
      if (key === null || !userId || !(await notificationExists(db, caller.organizationId, userId, key))) {
        throw new NotFound('notification not found');
      }
      await markRead(db, caller.organizationId, userId, key);
    },

    async markAllRead(caller: OrgCaller) {
      const userId = person(caller);
      return { marked: userId ? await markRead(db, caller.organizationId, userId, null) : 0 };
    },

    async getPreferences(caller: OrgCaller): Promise<Preferences> {
      const userId = person(caller);
      return userId ? findPreferences(db, caller.organizationId, userId) : DEFAULT_PREFERENCES;
    },

    async putPreferences(caller: OrgCaller, input: PreferencesInput): Promise<Preferences> {
      const userId = person(caller);
      if (!userId) throw new Forbidden('notification preferences belong to signed-in users');
      const channels = Object.fromEntries(
        Object.entries(input.channels ?? {}).map(([k, v]) => [selectors([k])[0]!, [...new Set(v)]]),
      );
      const projectIds = input.projects
        ? await Promise.all(input.projects.map(async (slug) => (await deps.projects.namedProjectOf(caller, slug)).id))
        : null;
      const saved = await db.transaction(async (trx) => {
        const prefs = await upsertPreferences(trx, caller.organizationId, userId, {
          events: [...new Set(selectors(input.events))],
          channels,
          projectIds,
          digestIntervalMs: input.digestIntervalMs ?? null,
        });
        await deps.audit.append(
          trx,
          orgEntry(caller, {
            action: 'notification.preferences.update',
            category: 'configuration',
            resourceType: 'notification_preferences',
            resourceId: userId,
            details: { events: prefs.events, channels, projectIds, digestIntervalMs: prefs.digestIntervalMs },
          }),
        );
        return prefs;
      });
      await deps.dispatcher.ensure(caller.organizationId);
      return saved;
    },
  };
}
