import { createHmac } from 'node:crypto';
import { createNotificationActivities } from '../../../activities/notifications';
import { DOMAIN_EVENT, recordDomainEvent, type DomainEventType } from '../../../src/events/domain-event-repository';
import { eventually } from '../../helpers/net';
import { startNotificationHarness, type NotificationHarness } from './notification-harness';
import type { NotificationMessage } from '../../../src/notifications/message';

/**
 * The outbox dispatcher (a Temporal workflow per organization on the real dev server): events written by the
 * platform reach matching active channels once, signed, in order; a dead channel does not hold up a live one.
 */
let h: NotificationHarness;
let ctx: Awaited<ReturnType<NotificationHarness['org']>>;

beforeAll(async () => {
  h = await startNotificationHarness({ slowMs: 10_000 });
  ctx = await h.org('pro');
}, 120_000);
afterAll(() => h?.close());

async function hook(path: string, events: string[], secret?: string): Promise<string> {
  const res = await h.api.post(`/api/v2/projects/${ctx.slug}/webhooks`, {
    token: ctx.owner.token,
    body: { name: path, url: h.receiver.url(path), events, active: true, ...(secret ? { secret } : {}) },
  });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

const release = (type: DomainEventType, releaseId: string) =>
  recordDomainEvent(h.platform.services.db, {
    organizationId: ctx.org.id,
    projectId: ctx.projectId,
    type,
    payload: { releaseId, project: ctx.slug },
  });

describe('outbox dispatch', () => {
  it('a release event reaches an active HTTP webhook once, signed; an inactive or non-matching one gets nothing', async () => {
    const live = await hook('/live', ['releases'], 'dispatch-secret');
    const images = await hook('/images-only', ['images']);
    const off = await h.api.post(`/api/v2/projects/${ctx.slug}/webhooks`, {
      token: ctx.owner.token,
      body: { name: 'off', url: h.receiver.url('/off'), events: ['*'] },
    });
    expect(off.status).toBe(201);
    const eventId = await release(DOMAIN_EVENT.releaseCreated, 'r-1');

    const got = await eventually(async () => h.receiver.at('/live')[0], 20_000, 'webhook delivery');
    const timestamp = got.headers['x-service-timestamp'] as string;
    const mac = createHmac('sha256', 'dispatch-secret').update(`${timestamp}.${got.body}`).digest('hex');
    expect(got.headers['x-service-signature']).toBe(`sha256=${mac}`);
    expect(JSON.parse(got.body)).toMatchObject({ id: eventId, event: 'release.create', data: { releaseId: 'r-1' } });

    // A second dispatch of the same (event, channel, recipient), as a replayed activity would make, sends nothing.
    const activities = createNotificationActivities(h.platform.services);
    const again = await activities.deliverNotification({
      channelId: live,
      recipient: '',
      eventId,
      timeoutMs: 5_000,
      message: JSON.parse(got.body) as NotificationMessage,
    });
    expect(again).toBe('duplicate');
    await release(DOMAIN_EVENT.releaseFailed, 'r-1');
    await eventually(async () => h.receiver.at('/live').length === 2, 20_000, 'second event');
    expect(h.receiver.at('/live').map((r) => (JSON.parse(r.body) as { event: string }).event)).toEqual([
      'release.create',
      'release.fail',
    ]);
    expect(h.receiver.at('/images-only')).toHaveLength(0);
    expect(h.receiver.at('/off')).toHaveLength(0);
    const log = await h.api.get(`/api/v2/projects/${ctx.slug}/webhooks/${live}/deliveries`, { token: ctx.owner.token });
    expect((log.body as { items: unknown[] }).items).toHaveLength(2);
    void images;
  });

  it('a dead channel does not delay a live one', async () => {
    await hook('/slow-dead', ['governance']);
    await hook('/live-gov', ['governance']);
    const started = Date.now();
    for (let i = 0; i < 3; i++) {
      await recordDomainEvent(h.platform.services.db, {
        organizationId: ctx.org.id,
        projectId: ctx.projectId,
        type: DOMAIN_EVENT.policyViolationDetected,
        payload: { n: i },
      });
    }
    await eventually(async () => h.receiver.at('/live-gov').length === 3, 20_000, 'live channel deliveries');
    // The dead channel has had one request (it hangs for 10 s, the total timeout is 1.5 s per attempt), while the live
    // one has all three events, in order.
    expect(h.receiver.at('/live-gov').map((r) => (JSON.parse(r.body) as { data: { n: number } }).data.n)).toEqual([
      0, 1, 2,
    ]);
    expect(h.receiver.at('/live-gov')[2]!.at - started).toBeLessThan(3_000);
    expect(h.receiver.at('/slow-dead').length).toBeLessThan(3);
  });

  it('events written by routes (API key creation) reach a security-selecting channel', async () => {
    await hook('/security', ['apikey.create']);
    const res = await h.api.post(`/api/v2/projects/${ctx.slug}/api-keys`, {
      token: ctx.owner.token,
      body: { name: 'ci', scopes: ['read'] },
    });
    expect(res.status).toBe(201);
    const got = await eventually(async () => h.receiver.at('/security')[0], 20_000, 'apikey.create delivery');
    expect(JSON.parse(got.body)).toMatchObject({ event: 'apikey.create', category: 'security', data: { name: 'ci' } });
    expect(got.body).not.toContain('svc_');
  });
});

describe('in-app notifications and preferences', () => {
  const inbox = (token: string, query = '') =>
    h.api.get<{ items: { id: string; event: string; eventId: string; read: boolean }[] }>(
      `/api/v2/notifications${query}`,
      { token },
    );

  it('members get every event in-app by default; preferences narrow it by event and project', async () => {
    const member = ctx.members.member!;
    const prefs = await h.api.put('/api/v2/notifications/preferences', {
      token: member.token,
      body: { events: ['images', 'release.failed'], projects: [ctx.slug], channels: { deployment: ['in_app'] } },
    });
    expect(prefs.status).toBe(200);
    expect(prefs.body).toMatchObject({ events: ['images', 'release.fail'], projectIds: [ctx.projectId] });
    const other = await h.api.post('/api/v2/projects', {
      token: ctx.owner.token,
      body: { slug: `${ctx.slug}-b`, name: 'b' },
    });
    const otherId = (other.body as { id: string }).id;
    const ev = (type: DomainEventType, projectId: string) =>
      recordDomainEvent(h.platform.services.db, {
        organizationId: ctx.org.id,
        projectId,
        type,
        payload: {},
      });
    const deployed = await ev(DOMAIN_EVENT.releaseDeployed, ctx.projectId);
    const elsewhere = await ev(DOMAIN_EVENT.releaseFailed, otherId);
    const failed = await ev(DOMAIN_EVENT.releaseFailed, ctx.projectId);

    await eventually(
      async () => (await inbox(ctx.owner.token)).body.items.some((n) => n.eventId === failed),
      20_000,
      'owner inbox',
    );
    const mine = (await inbox(member.token)).body.items;
    expect(mine.map((n) => n.eventId)).toContain(failed);
    expect(mine.map((n) => n.eventId)).not.toContain(deployed);
    expect(mine.map((n) => n.eventId)).not.toContain(elsewhere);
    expect(mine.filter((n) => n.eventId === failed)).toHaveLength(1);

    const before = (await h.api.get<{ unread: number }>('/api/v2/notifications/unread-count', { token: member.token }))
      .body.unread;
    expect(before).toBeGreaterThan(0);
    const first = mine[0]!;
    expect((await h.api.post(`/api/v2/notifications/${first.id}/read`, { token: ctx.owner.token })).status).toBe(404);
    expect((await h.api.post(`/api/v2/notifications/${first.id}/read`, { token: member.token })).status).toBe(204);
    expect(
      (await h.api.get<{ unread: number }>('/api/v2/notifications/unread-count', { token: member.token })).body.unread,
    ).toBe(before - 1);
    expect((await inbox(member.token, '?unread=true')).body.items.map((n) => n.id)).not.toContain(first.id);
    await h.api.post('/api/v2/notifications/read-all', { token: member.token });
    expect(
      (await h.api.get<{ unread: number }>('/api/v2/notifications/unread-count', { token: member.token })).body.unread,
    ).toBe(0);
  });
});

describe('dispatcher reconciliation', () => {
  it('an organization with nothing configured gets its dispatcher from the reconciler: in-app is automatic', async () => {
    const fresh = await h.org('free');
    const eventId = await recordDomainEvent(h.platform.services.db, {
      organizationId: fresh.org.id,
      projectId: fresh.projectId,
      type: DOMAIN_EVENT.releaseCreated,
      payload: { releaseId: 'r-auto' },
    });
    expect(await h.platform.services.notifications.reconcileDispatchers()).toBeGreaterThanOrEqual(1);
    const items = await eventually(
      async () => {
        const res = await h.api.get<{ items: { eventId: string }[] }>('/api/v2/notifications', {
          token: fresh.owner.token,
        });
        return res.body.items.some((i) => i.eventId === eventId) && res.body.items;
      },
      20_000,
      'automatic in-app notification',
    );
    expect(items.length).toBeGreaterThanOrEqual(1);
  });
});
