import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { createActivities } from '../../activities';
import type { GitActivities } from '../../activities/git';
import { breakGlassWorkflowId } from '../../src/break-glass/break-glass-workflow-contract';
import { agentHeartbeatSignal, clusterHeartbeatStateQuery } from '../../src/clusters/cluster-workflow-contract';
import { messageOf } from '../../src/notifications/message';
import {
  digestItemSignal,
  resolveIncidentUpdate,
  type PlannedDelivery,
} from '../../src/notifications/notification-workflow-contract';
import type { QueuedImageUpdate } from '../../src/webhooks/image-update-batch';
import { imageUpdateSignal, type ImageUpdateActivities } from '../../src/webhooks/image-update-workflow-contract';
import type * as workflows from '../../workflows';
import { breakGlassWorkflow } from '../../workflows/break-glass';
import { clusterHeartbeatWorkflow } from '../../workflows/cluster-heartbeat';
import { escalationIncidentWorkflow } from '../../workflows/escalation-incident';
import { gitPushWorkflow, repositoryMaintenanceWorkflow } from '../../workflows/git-commit';
import { IMAGE_UPDATES_IDLE_MS, imageUpdatesWorkflow } from '../../workflows/image-updates';
import { invitationWorkflow } from '../../workflows/invitation';
import { notificationDigestWorkflow } from '../../workflows/notification-digest';
import { notificationDispatchWorkflow } from '../../workflows/notification-dispatch';
import { eventually } from '../helpers/net';

/**
 * The scenes of test/workflows/worker-crash-families.test.ts: per workflow type, how a run is started, where its first
 * worker stops (inside an activity, or with the run parked on a timer), what moves it on once the second worker is up,
 * and every effect of the whole run. Effects are labelled by the stubs below (`attempt`), one per completed activity.
 */
export type WorkflowType = keyof typeof workflows;

type Activities = Pick<
  ReturnType<typeof createActivities>,
  | 'openBreakGlass'
  | 'closeBreakGlass'
  | 'notifyEscalationTier'
  | 'recordIncidentTransition'
  | 'resolveIncidentTargets'
  | 'sendDigest'
  | 'readDispatchCursor'
  | 'planDispatch'
  | 'deliverNotification'
  | 'recordAgentConnected'
  | 'checkAgentHeartbeat'
  | 'mailInvitation'
  | 'expireInvitation'
> &
  Pick<GitActivities, 'pushToRemote' | 'maintainRepositories'> &
  Pick<ImageUpdateActivities, 'commitImageRequests' | 'failImageRequests' | 'noteImageRequestsWaiting'>;

/** One activity attempt whose completion is the effect `label`; reads pass null (they change nothing). */
export type Attempt = <T>(label: string | null, effect: () => T) => Promise<T>;

/**
 * A scaffolded domain's scene (test/workflows/<domain>/<domain>-item-crash-scene.ts, written by `npm run new-domain`
 * and listed in DOMAIN_SCENES below): the stubs of its workflow's activities, and its scene.
 */
export interface DomainCrashScene {
  stubs(attempt: Attempt): object;
  scene(env: () => TestWorkflowEnvironment): Scene;
}

export interface Scene {
  name: string;
  type: WorkflowType;
  start(taskQueue: string): Promise<WorkflowHandle>;
  /** The effect the first worker is inside when it stops, or null: it stops once `parked` holds. */
  hangOn: string | null;
  /** The run is in the middle: the effects so far. */
  parked: string[];
  /** What moves the run on once the second worker is up (a timer's time, a signal, an Update). */
  then?: (handle: WorkflowHandle) => Promise<void>;
  /** Every effect of the whole run, once each. */
  effects: string[];
  /** What the run returns; absent for a run that never ends by itself: it is brought to rest, then terminated. */
  result?: unknown;
  /** For a run that never ends: what to read from it at rest, and what it must say. */
  atRest?: (handle: WorkflowHandle) => Promise<unknown>;
  rest?: unknown;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SHA = 'a'.repeat(40);
const actor = { userId: 'user-ann', actorType: 'user' as const, actor: 'ann', requestId: null };

const message = (eventId: string) =>
  messageOf({
    event: 'release.fail',
    eventId,
    organizationId: 'org-1',
    projectId: null,
    occurredAt: '2026-11-30T00:00:00.000Z',
    data: {},
  });

function delivery(eventId: string): PlannedDelivery {
  return { channelId: 'channel-1', recipient: 'ops', eventId, message: message(eventId), timeoutMs: 60_000 };
}

function imageUpdate(webhookId: string): QueuedImageUpdate {
  return {
    webhookId,
    requestId: `req-${webhookId}`,
    signedAt: 1_000,
    updates: [{ workload: 'web', tag: webhookId, requestId: `req-${webhookId}`, pairs: [] }],
  };
}

export function crashStubs(attempt: Attempt): Activities {
  return {
    openBreakGlass: (i) =>
      attempt('openBreakGlass', () => ({ sessionId: i.sessionId, openedAt: i.openedAt, endsAt: i.endsAt })),
    closeBreakGlass: () => attempt('closeBreakGlass', () => '2026-11-30T00:00:00.000Z'),
    pushToRemote: () => attempt('pushToRemote', () => ({ status: 'pushed' as const, error: null })),
    maintainRepositories: () => attempt('maintainRepositories', () => 1),
    notifyEscalationTier: (i) => attempt(`notify tier ${i.tierIndex}`, () => undefined),
    recordIncidentTransition: (i) => attempt(`incident ${i.to}`, () => undefined),
    resolveIncidentTargets: () => attempt('resolve targets', () => undefined),
    sendDigest: (i) => attempt(`digest ${i.items.map((item) => item.eventId).join('+')}`, () => 'sent' as const),
    readDispatchCursor: () => attempt(null, () => 0),
    planDispatch: (i) =>
      attempt(null, () =>
        i.afterSeq === 0
          ? { lastSeq: 2, events: i.limit, deliveries: [delivery('e1'), delivery('e2')] }
          : { lastSeq: i.afterSeq, events: 0, deliveries: [] },
      ),
    deliverNotification: (d) => attempt(`deliver ${d.eventId}`, () => 'sent' as const),
    recordAgentConnected: () => attempt('connected', () => ({ state: 'connected' as const, lastHeartbeatMs: null })),
    checkAgentHeartbeat: () =>
      attempt('disconnected', () => ({ state: 'disconnected' as const, lastHeartbeatMs: null })),
    mailInvitation: () => attempt('mail', () => 'sent' as const),
    expireInvitation: () => attempt('expire', () => 'expired' as const),
    commitImageRequests: (b) =>
      attempt(`commit ${b.entries.map((e) => e.webhookId).join('+')}`, () => ({
        sha: SHA,
        created: true,
        auditIds: [],
        remote: false,
      })),
    failImageRequests: () => attempt('fail image requests', () => undefined),
    noteImageRequestsWaiting: () => attempt('note waiting', () => undefined),
    ...(Object.assign({}, ...DOMAIN_SCENES.map((domain) => domain.stubs(attempt))) as object),
  };
}

/** The scenes, started on the environment `env()` returns (it is set up before the tests run). */
export function crashScenes(env: () => TestWorkflowEnvironment, effects: () => string[]): Scene[] {
  const client = () => env().client;
  const until = (effect: string) =>
    eventually(async () => effects().includes(effect), 20_000, `the effect ${effect}`).then(() => undefined);
  return [
    {
      name: 'break-glass: parked on its one-day timer, closed by the new worker when it fires',
      type: 'breakGlassWorkflow',
      start: (taskQueue) => {
        const sessionId = randomUUID();
        return client().workflow.start(breakGlassWorkflow, {
          taskQueue,
          workflowId: breakGlassWorkflowId(sessionId),
          args: [
            {
              sessionId,
              organizationId: 'org-1',
              userId: 'user-ann',
              actor,
              justification: 'prod is down',
              durationMinutes: DAY / 60_000,
              durationMs: DAY,
              scope: { projectIds: ['project-1'], environments: ['prod'] },
            },
          ],
        });
      },
      hangOn: null,
      parked: ['openBreakGlass'],
      then: () => env().sleep(DAY),
      effects: ['openBreakGlass', 'closeBreakGlass'],
      result: { status: 'closed' },
    },
    {
      name: 'push: stopped in the middle of the push, pushed once by the new worker',
      type: 'gitPushWorkflow',
      start: (taskQueue) =>
        client().workflow.start(gitPushWorkflow, {
          taskQueue,
          workflowId: `git-push-crash-${randomUUID()}`,
          args: [{ request: { organizationId: 'org-1', projectId: 'project-1', sha: SHA }, taskQueue }],
        }),
      hangOn: 'pushToRemote',
      parked: [],
      effects: ['pushToRemote'],
      result: { status: 'pushed', error: null },
    },
    {
      name: 'maintenance: stopped in the middle of git gc, maintained once by the new worker',
      type: 'repositoryMaintenanceWorkflow',
      start: (taskQueue) =>
        client().workflow.start(repositoryMaintenanceWorkflow, {
          taskQueue,
          workflowId: `git-maintenance-crash-${randomUUID()}`,
          args: [{ taskQueue, target: { organizationId: 'org-1', projectId: 'project-1' } }],
        }),
      hangOn: 'maintainRepositories',
      parked: [],
      effects: ['maintainRepositories'],
      result: 1,
    },
    {
      name: 'escalation: parked on the tier-1 timeout, tier 2 paged and the incident resolved by the new worker',
      type: 'escalationIncidentWorkflow',
      start: (taskQueue) => {
        const incidentId = randomUUID();
        return client().workflow.start(escalationIncidentWorkflow, {
          taskQueue,
          workflowId: `escalation-incident-${incidentId}`,
          args: [
            {
              incidentId,
              organizationId: 'org-1',
              policy: {
                policyId: 'policy-1',
                name: 'on call',
                tiers: [{ targets: [{ kind: 'user', id: 'user-1' }] }, { targets: [{ kind: 'team', id: 'team-1' }] }],
                timeoutMs: HOUR,
                repeatCount: 0,
                repeatIntervalMs: HOUR,
                businessHours: null,
              },
              message: message('incident-event'),
            },
          ],
        });
      },
      hangOn: null,
      parked: ['notify tier 0'],
      then: async (handle) => {
        await env().sleep(HOUR);
        await until('notify tier 1');
        await handle.executeUpdate(resolveIncidentUpdate, { args: [{ actor, via: 'api' }] });
      },
      effects: ['notify tier 0', 'notify tier 1', 'incident resolved', 'resolve targets'],
      result: expect.objectContaining({ status: 'resolved' }) as unknown,
    },
    {
      name: "digest: stopped in the middle of sending the window's summary, sent once by the new worker",
      type: 'notificationDigestWorkflow',
      start: (taskQueue) =>
        client().workflow.signalWithStart(notificationDigestWorkflow, {
          taskQueue,
          workflowId: `notification-digest-crash-${randomUUID()}`,
          args: [{ organizationId: 'org-1', userId: 'user-ann', sendsPerRun: 10 }],
          signal: digestItemSignal,
          // A window of 100 ms (real time: the server skips none while nothing waits on the run).
          signalArgs: [
            {
              eventId: 'd1',
              event: 'release.fail',
              title: 'release failed',
              occurredAt: '2026-11-30T00:00:00.000Z',
              projectId: null,
              intervalMs: 100,
            },
          ],
        }),
      hangOn: 'digest d1',
      parked: [],
      effects: ['digest d1'],
    },
    {
      name: "dispatch: stopped in the middle of a channel's first delivery, both delivered once, in order, by the new worker",
      type: 'notificationDispatchWorkflow',
      start: (taskQueue) =>
        client().workflow.start(notificationDispatchWorkflow, {
          taskQueue,
          workflowId: `notification-dispatch-crash-${randomUUID()}`,
          // The second turn finds nothing and waits an hour: the run is at rest there.
          args: [{ organizationId: 'org-1', pollIntervalMs: HOUR, batchSize: 10, turnsPerRun: 5 }],
        }),
      hangOn: 'deliver e1',
      parked: [],
      effects: ['deliver e1', 'deliver e2'],
    },
    {
      name: 'heartbeat: parked on the window timer while connected, disconnected once by the new worker',
      type: 'clusterHeartbeatWorkflow',
      start: (taskQueue) =>
        client().workflow.signalWithStart(clusterHeartbeatWorkflow, {
          taskQueue,
          workflowId: `cluster-heartbeat-crash-${randomUUID()}`,
          args: [{ clusterId: 'cluster-1', windowMs: 5 * 60_000, checksPerRun: 10 }],
          signal: agentHeartbeatSignal,
          signalArgs: [],
        }),
      hangOn: null,
      parked: ['connected'],
      then: () => env().sleep(5 * 60_000),
      effects: ['connected', 'disconnected'],
      atRest: (handle) => handle.query(clusterHeartbeatStateQuery),
      rest: { connected: false, checks: 1 },
    },
    {
      name: 'invitation: stopped in the middle of its first mail, mailed once and expired by the new worker',
      type: 'invitationWorkflow',
      start: async (taskQueue) => {
        const invitationId = randomUUID();
        // The server's clock, which time skipping moves ahead of the wall clock.
        const now = await env().currentTimeMs();
        return client().workflow.start(invitationWorkflow, {
          taskQueue,
          workflowId: `invitation-${invitationId}`,
          args: [
            {
              invitationId,
              organizationId: 'org-1',
              email: 'bob@example.test',
              tokenHash: 'b'.repeat(64),
              expiresAt: new Date(now + DAY).toISOString(),
              ttlMs: DAY,
            },
          ],
        });
      },
      hangOn: 'mail',
      parked: [],
      effects: ['mail', 'expire'],
      result: expect.objectContaining({ status: 'expired', reissues: 0 }) as unknown,
    },
    {
      name: 'image updates: parked idle after a batch, its commit not run again when the new worker replays it',
      type: 'imageUpdatesWorkflow',
      start: (taskQueue) => {
        const projectId = randomUUID();
        return client().workflow.signalWithStart(imageUpdatesWorkflow, {
          taskQueue,
          workflowId: `image-updates-${projectId}`,
          args: [{ organizationId: 'org-1', projectId, gitTaskQueue: taskQueue }],
          signal: imageUpdateSignal,
          signalArgs: [imageUpdate('w1')],
        });
      },
      hangOn: null,
      parked: ['commit w1'],
      then: async (handle) => {
        await handle.signal(imageUpdateSignal, imageUpdate('w2'));
        await until('commit w2');
        await env().sleep(IMAGE_UPDATES_IDLE_MS);
      },
      effects: ['commit w1', 'commit w2'],
      result: undefined,
    },
    ...DOMAIN_SCENES.map((domain) => domain.scene(env)),
  ];
}

/** The scenes of the domains `npm run new-domain` wrote. */
const DOMAIN_SCENES: DomainCrashScene[] = [
  // Each new domain's scene is added here by `npm run new-domain`.
];
