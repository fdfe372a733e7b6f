import { randomUUID } from 'node:crypto';
import type { createActivities } from '../../activities';
import { messageOf } from '../../src/notifications/message';
import { resolveIncidentUpdate } from '../../src/notifications/notification-workflow-contract';
import { escalationIncidentWorkflow } from '../../workflows/escalation-incident';
import { timeSkippingWorker } from '../helpers/time-skipping';
import { expectBoundedRuns, HISTORY_BUDGET, untilIdle, withinBudget } from '../helpers/history-budget';

/**
 * History budget of an escalation incident on the time-skipping server: paging repeated for two days, several runs'
 * worth (expectBoundedRuns), then resolved. Every run stays under the budget and every page is sent; the documented week
 * only adds runs like these.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PAGING = 2 * DAY;
let pages = 0;
const stubs: Pick<
  ReturnType<typeof createActivities>,
  'notifyEscalationTier' | 'recordIncidentTransition' | 'resolveIncidentTargets'
> = {
  notifyEscalationTier: async () => {
    pages += 1;
  },
  recordIncidentTransition: async () => undefined,
  resolveIncidentTargets: async () => undefined,
};

const ts = timeSkippingWorker(require.resolve('../../workflows'), stubs);

it(`pages an escalation repeating for two days, then resolves it, under ${HISTORY_BUDGET} events per run`, async () => {
  const incidentId = randomUUID();
  const repeatCount = PAGING / (20 * MINUTE);
  const handle = await ts.env.client.workflow.start(escalationIncidentWorkflow, {
    taskQueue: ts.taskQueue,
    workflowId: `escalation-incident-${incidentId}`,
    args: [
      {
        incidentId,
        organizationId: 'org',
        policy: {
          policyId: 'policy-1',
          name: 'on call',
          tiers: [{ targets: [{ kind: 'user', id: 'u1' }] }, { targets: [{ kind: 'team', id: 't1' }] }],
          timeoutMs: 5 * MINUTE,
          repeatCount,
          repeatIntervalMs: 10 * MINUTE,
          businessHours: null,
        },
        message: messageOf({
          event: 'release.fail',
          eventId: randomUUID(),
          organizationId: 'org',
          projectId: null,
          occurredAt: new Date().toISOString(),
          data: {},
        }),
      },
    ],
  });
  const state = await withinBudget(
    handle,
    (async () => {
      await ts.env.sleep(PAGING + HOUR);
      await untilIdle(ts.env.client, handle.workflowId);
      return ts.env.client.workflow
        .getHandle(handle.workflowId)
        .executeUpdate(resolveIncidentUpdate, { args: [{ actor: stubActor, via: 'api' }] });
    })(),
  );
  expect(state.status).toBe('resolved');
  expect(pages).toBe((repeatCount + 1) * 2);
  expect(await handle.result()).toMatchObject({ status: 'resolved' });
  await expectBoundedRuns(ts.env.client, handle.workflowId, handle.firstExecutionRunId, 'escalation for two days');
}, 600_000);

const stubActor = { userId: null, actorType: 'user' as const, actor: 'oncall@example.test', requestId: null };
