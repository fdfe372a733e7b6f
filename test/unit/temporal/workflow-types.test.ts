import fs from 'node:fs';
import path from 'node:path';
import type * as Workflows from '../../../workflows';
import type { WorkflowType } from '../../../src/temporal/workflow-type';
import { breakGlassWorkflowType } from '../../../src/break-glass/break-glass-workflow-contract';
import { clusterHeartbeatWorkflowType } from '../../../src/clusters/cluster-workflow-contract';
import {
  gitCommitWorkflowType,
  gitPushWorkflowType,
  repositoryMaintenanceWorkflowType,
} from '../../../src/gitops/git-workflow-contract';
import { proofWorkflowType } from '../../../src/diagnostics/proof-workflow-contract';
import { invitationWorkflowType } from '../../../src/invitations/invitation-workflow-contract';
import {
  escalationIncidentWorkflowType,
  notificationDigestWorkflowType,
  notificationDispatchWorkflowType,
} from '../../../src/notifications/notification-workflow-contract';
import { promotionWorkflowType } from '../../../src/promotions/promotion-workflow-contract';
import { releaseWorkflowType } from '../../../src/releases/release-workflow-contract';
import { imageUpdatesWorkflowType } from '../../../src/webhooks/image-update-workflow-contract';
import { rolloutWorkflowType } from '../../../src/rollouts/rollout-workflow-contract';
import { watchRegistryWorkflowType } from '../../../src/watch/watch-registry-contract';

/**
 * Domain code starts workflows by the type its contract declares (src/temporal/workflow-type.ts), never by importing
 * workflows/: each declared type must name a function workflows/index.ts exports, with the same signature (checked
 * by the compiler below), so a start can neither miss the worker's registration nor pass arguments it does not take.
 */
const DECLARED = [
  breakGlassWorkflowType,
  clusterHeartbeatWorkflowType,
  escalationIncidentWorkflowType,
  gitCommitWorkflowType,
  gitPushWorkflowType,
  imageUpdatesWorkflowType,
  invitationWorkflowType,
  notificationDigestWorkflowType,
  notificationDispatchWorkflowType,
  promotionWorkflowType,
  proofWorkflowType,
  releaseWorkflowType,
  repositoryMaintenanceWorkflowType,
  rolloutWorkflowType,
  watchRegistryWorkflowType,
];

type Exported = typeof Workflows;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The names whose declared function type differs from the exported workflow's (never when all agree). */
type Mismatched<T> =
  T extends WorkflowType<infer W, infer N>
    ? N extends keyof Exported
      ? Same<W, Exported[N]> extends true
        ? never
        : N
      : N
    : never;
const mismatched: [Mismatched<(typeof DECLARED)[number]>] extends [never] ? 'none' : never = 'none';

function exportedWorkflows(): string[] {
  const text = fs.readFileSync(path.resolve(__dirname, '../../../workflows/index.ts'), 'utf8');
  return [...text.matchAll(/^export \{([^}]*)\} from/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim()));
}

describe('workflow types', () => {
  it('names only workflows the worker registers, each with the signature of its function', () => {
    expect(mismatched).toBe('none');
    const exported = new Set(exportedWorkflows());
    expect(DECLARED.map((t) => t.name).filter((name) => !exported.has(name))).toEqual([]);
  });
});
