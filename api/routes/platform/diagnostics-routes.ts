import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { NotFound } from '../../../src/errors';
import type { Services } from '../../../src/runtime/services';
import { SEARCH_ATTRIBUTES } from '../../../src/temporal/definitions';
import { proofWorkflowId, proofWorkflowType, type ProofResult } from '../../../src/diagnostics/proof-workflow-contract';
import type { RouteDef } from '../../route-def';

/**
 * Proves the delivery path for an organization: API → Temporal → worker → activity → PostgreSQL, ending in an
 * audit entry of that organization. Workflow ids carry the organization, so one organization cannot read another's.
 */
export function diagnosticsRoutes(services: Pick<Services, 'workflows' | 'temporal'>): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/api/v2/diagnostics/proof-runs',
      summary: 'Start a proof workflow that exercises Temporal, a worker and the database end to end',
      tag: 'diagnostics',
      access: { kind: 'organization', action: 'org.diagnostics.run' },
      status: 202,
      handler: async (ctx) => {
        const orgId = ctx.state.principal!.organizationId!;
        const runId = randomUUID();
        const id = proofWorkflowId(orgId, runId);
        await services.workflows.start(proofWorkflowType, {
          workflowId: id,
          args: [{ runId, organizationId: orgId, steps: 2, stepDelayMs: 100 }],
          searchAttributes: [{ key: SEARCH_ATTRIBUTES.organizationId, value: orgId }],
          summary: 'Delivery path proof',
        });
        ctx.body = { id: runId, workflowId: id, status: 'RUNNING' };
      },
    },
    {
      method: 'get',
      path: '/api/v2/diagnostics/proof-runs/:id',
      summary: 'Status and result of a proof workflow',
      tag: 'diagnostics',
      access: { kind: 'organization', action: 'org.diagnostics.run' },
      handler: async (ctx) => {
        const runId = ctx.params.id ?? '';
        const handle = services.temporal.workflow.getHandle(
          proofWorkflowId(ctx.state.principal!.organizationId!, runId),
        );
        try {
          const description = await handle.describe();
          const status = description.status.name;
          const result = status === 'COMPLETED' ? ((await handle.result()) as ProofResult) : null;
          ctx.body = { id: runId, workflowId: handle.workflowId, status, result };
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) throw new NotFound('proof run not found');
          throw err;
        }
      },
    },
  ];
}
