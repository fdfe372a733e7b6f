import type { Page, PageRequest } from '../db/pagination';
import { InvalidInput, NotFound } from '../errors';
import { orgEntry, requireUser, uuidKey, type OrgCaller } from '../iam/caller';
import type { OrgDomainDeps } from '../iam/cross-org';
import type { ProjectService } from '../projects/project-service';
import type { DispatcherPort } from './channel-service';
import { canonicalSelector, isEventSelector } from './event-catalog';
import {
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
  deps: OrgDomainDeps & { projects: Pick<ProjectService, 'projectOf'>; dispatcher: DispatcherPort },
) {
  const { db } = deps;
  const me = (caller: OrgCaller) => requireUser(caller).userId;
  const selectors = (list: string[]) => {
    const bad = list.find((e) => !isEventSelector(e));
    if (bad !== undefined) throw new InvalidInput(`unknown event or group: ${bad}`);
    return list.map(canonicalSelector);
  };

  return {
    list: (caller: OrgCaller, page: PageRequest, unreadOnly: boolean): Promise<Page<InAppNotification>> =>
      listInbox(db, caller.organizationId, me(caller), page, unreadOnly),

    unreadCount: async (caller: OrgCaller) => ({ unread: await unreadCount(db, caller.organizationId, me(caller)) }),

    async markRead(caller: OrgCaller, id: string): Promise<void> {
      const key = uuidKey(id);
      // Another member's notification answers like a missing one.
      if (key === null || !(await notificationExists(db, caller.organizationId, me(caller), key))) {
        throw new NotFound('notification not found');
      }
      await markRead(db, caller.organizationId, me(caller), key);
    },

    markAllRead: async (caller: OrgCaller) => ({ marked: await markRead(db, caller.organizationId, me(caller), null) }),

    getPreferences: (caller: OrgCaller): Promise<Preferences> => findPreferences(db, caller.organizationId, me(caller)),

    async putPreferences(caller: OrgCaller, input: PreferencesInput): Promise<Preferences> {
      const userId = me(caller);
      const channels = Object.fromEntries(
        Object.entries(input.channels ?? {}).map(([k, v]) => [selectors([k])[0]!, [...new Set(v)]]),
      );
      const projectIds = input.projects
        ? await Promise.all(input.projects.map(async (slug) => (await deps.projects.projectOf(caller, slug)).id))
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
