import { DOMAIN_EVENT, recordDomainEvent, type DomainEventType } from '../../../src/events/domain-event-repository';
import { eventually } from '../../helpers/net';
import { incidentStateQuery } from '../../../src/notifications/notification-workflow-contract';
import { startNotificationHarness, type NotificationHarness } from './notification-harness';

/**
 * Escalation policies over the API on the real dev server: a release failure opens an incident whose tiers are
 * notified in turn (tier 1 a webhook, tier 2 the paging service), similar events join it, the signed link
 * acknowledges it once, the cooldown holds back a new incident, and resolving resolves the page. An acknowledged
 * incident stays open until resolved, by the API or by its resolving event.
 */
let h: NotificationHarness;
let ctx: Awaited<ReturnType<NotificationHarness['org']>>;
const POLICIES = '/api/v2/notifications/escalation-policies';

beforeAll(async () => {
  h = await startNotificationHarness();
  ctx = await h.org('pro');
}, 120_000);
afterAll(() => h?.close());

const fail = () =>
  recordDomainEvent(h.platform.services.db, {
    organizationId: ctx.org.id,
    projectId: ctx.projectId,
    type: DOMAIN_EVENT.releaseFailed,
    payload: { releaseId: 'r-9', project: ctx.slug },
  });

const incidents = async () =>
  (
    await h.api.get<{ items: { id: string; status: string; eventCount: number }[] }>(
      '/api/v2/notifications/incidents',
      { token: ctx.owner.token },
    )
  ).body.items;

describe('escalation policies', () => {
  it('need the Pro plan; a missing policy is `notification policy not found`', async () => {
    const free = await h.org('free');
    const res = await h.api.post(POLICIES, {
      token: free.owner.token,
      body: {
        name: 'p',
        triggerEvents: ['release.failed'],
        tiers: [{ targets: [{ kind: 'user', id: free.owner.user.id }] }],
        timeoutMs: 60_000,
      },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Escalation policies require the Pro plan' });
    const missing = await h.api.get(`${POLICIES}/00000000-0000-4000-8000-000000000000`, { token: ctx.owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'notification policy not found' });
  });

  it('refuses targets outside the organization and unknown time zones', async () => {
    const body = { name: 'bad', triggerEvents: ['release.fail'], timeoutMs: 60_000 };
    const other = await h.org('pro');
    const foreign = await h.api.post(POLICIES, {
      token: ctx.owner.token,
      body: { ...body, tiers: [{ targets: [{ kind: 'user', id: other.owner.user.id }] }] },
    });
    expect(foreign.status).toBe(400);
    const tz = await h.api.post(POLICIES, {
      token: ctx.owner.token,
      body: {
        ...body,
        tiers: [{ targets: [{ kind: 'user', id: ctx.owner.user.id }] }],
        businessHours: { timeZone: 'Mars/Olympus', days: [1], start: '09:00', end: '17:00', outside: 'wait' },
      },
    });
    expect(tz.status).toBe(400);
  });

  it('escalates tier 1 then tier 2, aggregates, acknowledges once by the signed link, holds the cooldown, resolves the page', async () => {
    const hook = await h.api.post(`/api/v2/projects/${ctx.slug}/webhooks`, {
      token: ctx.owner.token,
      body: { name: 'tier1', url: h.receiver.url('/esc-tier1'), events: ['governance'] },
    });
    const paging = await h.api.post('/api/v2/notifications/channels', {
      token: ctx.owner.token,
      body: { type: 'paging', name: 'pd', secret: 'RK', url: h.receiver.url('/esc-pd'), events: ['governance'] },
    });
    const team = await h.api.post('/api/v2/teams', {
      token: ctx.owner.token,
      body: { slug: 'oncall', name: 'On call' },
    });
    const teamId = (team.body as { id: string }).id;
    const viewer = ctx.members.viewer!;
    await h.api.post(`/api/v2/teams/${teamId}/members`, { token: ctx.owner.token, body: { userId: viewer.user.id } });
    const policy = await h.api.post(POLICIES, {
      token: ctx.owner.token,
      body: {
        name: 'release failures',
        triggerEvents: ['release.failed'],
        tiers: [
          {
            targets: [
              { kind: 'channel', id: (hook.body as { id: string }).id },
              { kind: 'user', id: ctx.members.member!.user.id },
            ],
          },
          {
            targets: [
              { kind: 'channel', id: (paging.body as { id: string }).id },
              { kind: 'team', id: teamId },
            ],
          },
        ],
        timeoutMs: 1500,
        repeat: { count: 1, intervalMs: 1000 },
        cooldownMs: 600_000,
      },
    });
    expect(policy.status).toBe(201);

    await fail();
    const tier1 = await eventually(async () => h.receiver.at('/esc-tier1')[0], 20_000, 'tier 1');
    const link = (JSON.parse(tier1.body) as { link: string }).link;
    expect(link).toMatch(/\/api\/v2\/notifications\/incidents\/acknowledge\?token=[0-9a-f-]+\.[0-9a-f]{64}$/);
    const page = await eventually(async () => h.receiver.at('/esc-pd')[0], 20_000, 'tier 2');
    const [incident] = await incidents();
    expect(JSON.parse(page.body)).toMatchObject({
      event_action: 'trigger',
      dedup_key: incident!.id,
      routing_key: 'RK',
    });
    expect(page.at - tier1.at).toBeGreaterThanOrEqual(1400);
    const mail = await h.smtp.waitFor(ctx.members.member!.user.email, /\[release failures\]/);
    expect(mail.text).toContain('Acknowledge: ');
    // Tier 2 names a team: its members are notified (in-app and email).
    await h.smtp.waitFor(viewer.user.email, /\[release failures\]/);

    // A similar event while it is open joins the incident.
    await fail();
    await eventually(async () => (await incidents())[0]!.eventCount === 2, 20_000, 'aggregation');
    expect(await incidents()).toHaveLength(1);
    // The repeat cycle's tier 1 message counts the aggregated events.
    const repeated = await eventually(async () => h.receiver.at('/esc-tier1')[1], 20_000, 'repeat of tier 1');
    expect(JSON.parse(repeated.body)).toMatchObject({ title: expect.stringMatching(/\(2 events\)$/) });

    // The signed link: GET shows a form (acknowledges nothing), POST acknowledges, a second POST is refused.
    const path = link.slice(link.indexOf('/api/'));
    const form = await h.api.get(path);
    expect(form.status).toBe(200);
    expect((await incidents())[0]!.status).toBe('open');
    const acked = await h.api.post(path);
    expect(acked.status).toBe(200);
    expect(acked.body).toMatchObject({ status: 'acknowledged' });
    expect((await h.api.post(path)).status).toBe(409);
    expect((await h.api.post(`${path.slice(0, -4)}0000`)).status).toBe(404);

    // Inside the cooldown an identical event opens no new incident: once the dispatcher has decided it for this
    // policy (its claim row), there is still one incident.
    const suppressed = await fail();
    await eventually(
      async () =>
        (await h.platform.services
          .db('notification_sends')
          .where('idempotency_key', 'like', `escalation:${suppressed}:%`)
          .first()) ?? null,
      20_000,
      'the event decided by the escalation policy',
    );
    expect(await incidents()).toHaveLength(1);

    const resolved = await h.api.post(`/api/v2/notifications/incidents/${incident!.id}/resolve`, {
      token: ctx.members.member!.token,
    });
    expect(resolved.body).toMatchObject({ status: 'resolved' });
    const resolve = await eventually(
      async () => h.receiver.at('/esc-pd').find((r) => r.body.includes('"resolve"')),
      20_000,
      'resolve',
    );
    expect(JSON.parse(resolve.body)).toEqual({ routing_key: 'RK', event_action: 'resolve', dedup_key: incident!.id });

    const audit = await h.platform.services
      .db('audit_log')
      .where({ resource_id: incident!.id })
      .orderBy('seq')
      .select('action');
    expect(audit.map((a: { action: string }) => a.action)).toEqual([
      'notification.incident.open',
      'notification.incident.acknowledge',
      'notification.incident.resolve',
    ]);
  });

  it('an acknowledged incident stays open until its resolving event resolves it (policy.violation.resolve)', async () => {
    const hook = await h.api.post(`/api/v2/projects/${ctx.slug}/webhooks`, {
      token: ctx.owner.token,
      body: { name: 'violations', url: h.receiver.url('/esc-violation'), events: ['governance'] },
    });
    const policy = await h.api.post(POLICIES, {
      token: ctx.owner.token,
      body: {
        name: 'violations',
        triggerEvents: ['policy.violation.detect'],
        tiers: [{ targets: [{ kind: 'channel', id: (hook.body as { id: string }).id }] }],
        timeoutMs: 60_000,
      },
    });
    expect(policy.status).toBe(201);
    const violation = (type: DomainEventType) =>
      recordDomainEvent(h.platform.services.db, {
        organizationId: ctx.org.id,
        projectId: ctx.projectId,
        type,
        payload: { policy: 'no-latest-tag' },
      });
    const seen = new Set((await incidents()).map((i) => i.id));
    const mine = async () => (await incidents()).filter((i) => !seen.has(i.id));
    await violation(DOMAIN_EVENT.policyViolationDetected);
    await eventually(async () => h.receiver.at('/esc-violation')[0], 20_000, 'tier 1');
    const [incident] = await mine();
    const acked = await h.api.post(`/api/v2/notifications/incidents/${incident!.id}/acknowledge`, {
      token: ctx.members.member!.token,
    });
    expect(acked.body).toMatchObject({ status: 'acknowledged' });
    // Acknowledged: still open (its workflow runs, holding the acknowledgement and waiting only for a resolution).
    const handle = h.platform.services.temporal.workflow.getHandle(`escalation-incident-${incident!.id}`);
    expect(await handle.query(incidentStateQuery)).toMatchObject({ status: 'acknowledged' });
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect((await mine())[0]!.status).toBe('acknowledged');

    await violation(DOMAIN_EVENT.policyViolationResolved);
    await eventually(async () => (await mine())[0]!.status === 'resolved', 20_000, 'resolved by the event');
    expect((await handle.result()) as { status: string }).toMatchObject({ status: 'resolved' });
    const audit = await h.platform.services
      .db('audit_log')
      .where({ resource_id: incident!.id, action: 'notification.incident.resolve' })
      .first();
    expect(audit).toMatchObject({ actor: 'event:policy.violation.resolve', actor_type: 'system' });
  });
});
