import { DOMAIN_EVENT, recordDomainEvent, type DomainEventType } from '../../../src/events/domain-event-repository';
import { eventually } from '../../helpers/net';
import { startNotificationHarness, type NotificationHarness } from './notification-harness';

/**
 * A target that answers 429 (Retry-After), 502 or 504 is throttled across deliveries: the dispatcher's later
 * deliveries to it wait out a short pause (NOTIFY_THROTTLE_MAX_WAIT, 2 s here) or are logged `throttled` without a
 * request, while the other channels get every event at once.
 */
let h: NotificationHarness;
let ctx: Awaited<ReturnType<NotificationHarness['org']>>;

beforeAll(async () => {
  h = await startNotificationHarness({ env: { NOTIFY_THROTTLE_MAX_WAIT: '2s', NOTIFY_THROTTLE_DEFAULT: '60s' } });
  ctx = await h.org('free');
}, 120_000);
afterAll(() => h?.close());

async function hook(path: string, events: string[]): Promise<string> {
  const res = await h.api.post(`/api/v2/projects/${ctx.slug}/webhooks`, {
    token: ctx.owner.token,
    body: { name: path, url: h.receiver.url(path), events, active: true },
  });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

const events = async (type: DomainEventType, n: number) => {
  for (let i = 0; i < n; i++) {
    await recordDomainEvent(h.platform.services.db, {
      organizationId: ctx.org.id,
      projectId: ctx.projectId,
      type,
      payload: { n: i },
    });
  }
};

async function statuses(id: string): Promise<string[]> {
  const log = await h.api.get<{ items: { status: string; responseStatus: number | null }[] }>(
    `/api/v2/projects/${ctx.slug}/webhooks/${id}/deliveries`,
    { token: ctx.owner.token },
  );
  return log.body.items.map((i) => `${i.status}:${i.responseStatus ?? '-'}`).reverse();
}

describe('throttling a target across deliveries', () => {
  it('after a long Retry-After or a 502 the later deliveries are logged throttled; other channels get all', async () => {
    const busy = await hook('/busy?after=120', ['releases']);
    const bad = await hook('/badgateway', ['releases']);
    await hook('/live-throttle', ['releases']);
    await events(DOMAIN_EVENT.releaseCreated, 3);

    await eventually(async () => h.receiver.at('/live-throttle').length === 3, 20_000, 'live deliveries');
    await eventually(async () => (await statuses(busy)).length === 3, 20_000, 'busy log');
    await eventually(async () => (await statuses(bad)).length === 3, 20_000, 'bad gateway log');
    expect(await statuses(busy)).toEqual(['failed:429', 'throttled:-', 'throttled:-']);
    expect(await statuses(bad)).toEqual(['failed:502', 'throttled:-', 'throttled:-']);
    // One request each: the throttled deliveries never reached the targets.
    expect(h.receiver.at('/busy?after=120')).toHaveLength(1);
    expect(h.receiver.at('/badgateway')).toHaveLength(1);
    const channel = await h.api.get<{ throttledUntil: string }>(`/api/v2/projects/${ctx.slug}/webhooks/${busy}`, {
      token: ctx.owner.token,
    });
    const left = Date.parse(channel.body.throttledUntil) - Date.now();
    expect(left).toBeGreaterThan(100_000);
    expect(left).toBeLessThanOrEqual(120_000);
  });

  it('a short Retry-After makes the next delivery wait for it, then send', async () => {
    await hook('/busy?after=1', ['governance']);
    await events(DOMAIN_EVENT.policyViolationDetected, 2);
    await eventually(async () => h.receiver.at('/busy?after=1').length === 2, 20_000, 'second request');
    const [first, second] = h.receiver.at('/busy?after=1');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });
});
