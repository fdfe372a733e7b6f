import { DOMAIN_EVENT, recordDomainEvent, type DomainEventType } from '../../../src/events/domain-event-repository';
import { eventually } from '../../helpers/net';
import { digestWorkflowId } from '../../../src/notifications/notification-workflow-contract';
import { startNotificationHarness, type NotificationHarness } from './notification-harness';

/**
 * Personal preferences routed to email: immediately one mail per event, or in digest mode one summary per interval
 * (a per-member Temporal workflow) with every event of the interval, through the real SMTP listener, and the same
 * one summary in the in-app inbox when the preferences choose it too.
 */
let h: NotificationHarness;
let ctx: Awaited<ReturnType<NotificationHarness['org']>>;

beforeAll(async () => {
  h = await startNotificationHarness();
  ctx = await h.org('free');
}, 120_000);
afterAll(() => h?.close());

const event = (type: DomainEventType, payload: Record<string, unknown>) =>
  recordDomainEvent(h.platform.services.db, {
    organizationId: ctx.org.id,
    projectId: ctx.projectId,
    type,
    payload,
  });

/** True once the member's digest workflow has sent a summary and started no timer since: it waits for an item. */
async function digestIdle(userId: string): Promise<boolean> {
  const handle = h.platform.services.temporal.workflow.getHandle(digestWorkflowId(ctx.org.id, userId));
  const events = (await handle.fetchHistory()).events ?? [];
  let sent = -1;
  let timer = -1;
  events.forEach((e, i) => {
    if (e.activityTaskCompletedEventAttributes) sent = i;
    if (e.timerStartedEventAttributes) timer = i;
  });
  return sent > timer && events[events.length - 1]?.workflowTaskCompletedEventAttributes != null;
}

describe('email preferences and digests', () => {
  it('a member in digest mode receives one summary with every event of the interval', async () => {
    const member = ctx.members.member!;
    const prefs = await h.api.put('/api/v2/notifications/preferences', {
      token: member.token,
      body: { events: ['deployment'], channels: { deployment: ['email', 'in_app'] }, digestIntervalMs: 2000 },
    });
    expect(prefs.status).toBe(200);
    const viewer = ctx.members.viewer!;
    await h.api.put('/api/v2/notifications/preferences', {
      token: viewer.token,
      body: { events: ['release.deploy'], channels: { '*': ['email'] } },
    });

    const ids = [];
    for (const n of [1, 2, 3]) ids.push(await event(DOMAIN_EVENT.releaseDeployed, { releaseId: `r-${n}` }));
    await event(DOMAIN_EVENT.apiKeyCreated, { name: 'not in my categories' });

    const digest = await h.smtp.waitFor(member.user.email, /^Notification digest: 3 events$/);
    for (const n of [1, 2, 3]) expect(digest.text).toContain(`release.deploy  release.deploy: release r-${n}`);
    expect(digest.text).not.toContain('apikey.create');
    // The in-app inbox, also chosen for these events, gets the same one summary instead of a row per event.
    const inbox = await h.api.get<{
      items: { eventId: string; event: string; title: string; payload: { items: { eventId: string }[] } }[];
    }>('/api/v2/notifications', { token: member.token });
    expect(inbox.body.items).toHaveLength(1);
    expect(inbox.body.items[0]).toMatchObject({ event: 'notification.digest', title: 'Notification digest: 3 events' });
    expect(inbox.body.items[0]!.payload.items.map((i) => i.eventId)).toEqual(ids);

    // The member not in digest mode gets one mail per event, at once.
    for (let i = 0; i < 3; i++) await h.smtp.waitFor(viewer.user.email, /release\.deploy/, i);

    // Nothing more arrives for the member: one summary for the interval. The member's digest workflow is idle (its
    // summary sent, no timer left), so no other mail can come without a new event.
    await eventually(() => digestIdle(member.user.id), 20_000, 'digest idle after its summary');
    expect(h.smtp.to(member.user.email)).toHaveLength(1);

    // A later event opens the next window.
    await event(DOMAIN_EVENT.releaseFailed, { releaseId: 'r-4' });
    const second = await eventually(
      async () => h.smtp.to(member.user.email).find((m) => m.subject === 'Notification digest: 1 event'),
      20_000,
      'second digest',
    );
    expect(second.text).toContain('release.fail');
  });
});
