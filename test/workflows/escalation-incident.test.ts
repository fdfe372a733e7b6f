import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { createActivities } from '../../activities';
import { messageOf } from '../../src/notifications/message';
import {
  acknowledgeIncidentUpdate,
  incidentStateQuery,
  resolveIncidentUpdate,
  type EscalationSnapshot,
  type IncidentActionRequest,
  type IncidentInput,
} from '../../src/notifications/notification-workflow-contract';
import { escalationIncidentWorkflow } from '../../workflows/escalation-incident';
import { startStubWorker } from '../helpers/time-skipping';
import { historiesOf } from '../helpers/workflow-histories';

const { keep } = historiesOf('escalation');

/**
 * Escalation incidents on the time-skipping server: tiers after their timeout, whole-cycle repeats, acknowledgement
 * as an Update that stops the escalation, business hours (wait for the opening, or the after-hours tier).
 */
type EscalationActivities = Pick<
  ReturnType<typeof createActivities>,
  'notifyEscalationTier' | 'recordIncidentTransition' | 'resolveIncidentTargets'
>;

const MIN = 60_000;
const req: IncidentActionRequest = {
  actor: { userId: null, actorType: 'user', actor: 'oncall@example.test', requestId: null },
  via: 'api',
};

let env: TestWorkflowEnvironment;
let taskQueue: string;
let close: () => Promise<void>;
let notified: { incidentId: string; tier: number; cycle: number; atMs: number }[];
let transitions: string[];

function stubs(): EscalationActivities {
  return {
    notifyEscalationTier: async (input) => {
      notified.push({
        incidentId: input.incidentId,
        tier: input.tierIndex,
        cycle: input.cycle,
        atMs: Context.current().info.scheduledTimestampMs,
      });
    },
    recordIncidentTransition: async (input) => {
      transitions.push(input.to);
    },
    resolveIncidentTargets: async () => {
      transitions.push('resolve-targets');
    },
  };
}

function policy(over: Partial<EscalationSnapshot> = {}): EscalationSnapshot {
  return {
    policyId: randomUUID(),
    name: 'on call',
    tiers: [{ targets: [{ kind: 'user', id: randomUUID() }] }, { targets: [{ kind: 'team', id: randomUUID() }] }],
    timeoutMs: 5 * MIN,
    repeatCount: 1,
    repeatIntervalMs: 10 * MIN,
    businessHours: null,
    ...over,
  };
}

async function start(p: EscalationSnapshot) {
  const incidentId = randomUUID();
  const input: IncidentInput = {
    incidentId,
    organizationId: randomUUID(),
    policy: p,
    message: messageOf({
      event: 'release.fail',
      eventId: randomUUID(),
      organizationId: randomUUID(),
      projectId: null,
      occurredAt: new Date().toISOString(),
      data: {},
    }),
  };
  const handle = await env.client.workflow.start(escalationIncidentWorkflow, {
    taskQueue,
    workflowId: `escalation-incident-${incidentId}`,
    args: [input],
  });
  return { handle, incidentId, mine: () => notified.filter((n) => n.incidentId === incidentId) };
}

beforeAll(async () => {
  ({ env, taskQueue, close } = await startStubWorker(stubs()));
}, 120_000);
afterAll(() => close?.());
beforeEach(() => {
  notified = [];
  transitions = [];
});

describe('escalation incident workflow', () => {
  it('notifies tier 1, tier 2 after the timeout, then repeats the cycle; acknowledging stops it, resolving closes it', async () => {
    const t0 = await env.currentTimeMs();
    const { handle, mine } = await start(policy());
    await env.sleep(60 * MIN);
    expect(mine().map((n) => [n.tier, n.cycle])).toEqual([
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]);
    const offsets = mine().map((n) => Math.round((n.atMs - t0) / MIN));
    expect(offsets).toEqual([0, 5, 20, 25]);
    const state = await handle.executeUpdate(acknowledgeIncidentUpdate, { args: [req] });
    expect(state.status).toBe('acknowledged');
    // Acknowledged stops the escalation but keeps the incident open: the workflow runs on until a resolve.
    await env.sleep(60 * MIN);
    expect(mine()).toHaveLength(4);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect((await handle.query(incidentStateQuery)).status).toBe('acknowledged');
    await handle.executeUpdate(resolveIncidentUpdate, { args: [req] });
    expect((await handle.result()).status).toBe('resolved');
    await keep('tiers-repeated-acknowledged-resolved', handle);
    expect(transitions).toEqual(['acknowledged', 'resolved', 'resolve-targets']);
  });

  it('an acknowledgement during tier 1 stops the escalation: tier 2 is never notified', async () => {
    const { handle, mine } = await start(policy());
    await env.sleep(2 * MIN);
    await handle.executeUpdate(acknowledgeIncidentUpdate, { args: [req] });
    await env.sleep(60 * MIN);
    expect(mine().map((n) => n.tier)).toEqual([0]);
    // A second acknowledgement is refused by the validator (the signed link is single-use this way).
    await expect(handle.executeUpdate(acknowledgeIncidentUpdate, { args: [req] })).rejects.toThrow();
    await handle.executeUpdate(resolveIncidentUpdate, { args: [req] });
    await handle.result();
  });

  it('resolving closes the incident and resolves its paging targets', async () => {
    const { handle } = await start(policy());
    const state = await handle.executeUpdate(resolveIncidentUpdate, { args: [req] });
    await handle.result();
    await keep('resolved-at-once', handle);
    expect(state.status).toBe('resolved');
    expect(transitions).toEqual(['resolved', 'resolve-targets']);
    expect((await handle.result()).status).toBe('resolved');
  });

  it('outside business hours it waits for the next opening before notifying', async () => {
    const now = new Date(await env.currentTimeMs());
    const opensAt = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours() + 3),
    );
    const hh = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}:00`;
    const closesAt = new Date(opensAt.getTime() + 60 * MIN);
    const { handle, mine } = await start(
      policy({
        repeatCount: 0,
        businessHours: {
          timeZone: 'UTC',
          days: [1, 2, 3, 4, 5, 6, 7],
          start: hh(opensAt),
          end: hh(closesAt),
          outside: 'wait',
        },
      }),
    );
    await env.sleep(2 * 60 * MIN);
    expect(mine()).toEqual([]);
    expect((await handle.query(incidentStateQuery)).status).toBe('open');
    await env.sleep(2 * 60 * MIN);
    expect(mine().length).toBeGreaterThanOrEqual(1);
    expect(mine()[0]!.atMs).toBeGreaterThanOrEqual(opensAt.getTime());
    await handle.executeUpdate(resolveIncidentUpdate, { args: [req] });
  });

  it('outside business hours with an after-hours tier, that tier is notified at once', async () => {
    const now = new Date(await env.currentTimeMs());
    const later = `${String((now.getUTCHours() + 3) % 24).padStart(2, '0')}:00`;
    const end = `${String((now.getUTCHours() + 4) % 24).padStart(2, '0')}:00`;
    const { handle, mine } = await start(
      policy({
        repeatCount: 0,
        businessHours: {
          timeZone: 'UTC',
          days: [1, 2, 3, 4, 5, 6, 7],
          start: later,
          end,
          outside: 'after_hours_tier',
          afterHoursTier: { targets: [{ kind: 'user', id: randomUUID() }] },
        },
      }),
    );
    await env.sleep(MIN);
    expect(mine().map((n) => n.tier)).toEqual([-1]);
    await handle.executeUpdate(resolveIncidentUpdate, { args: [req] });
  });
});
