import { Context } from '@temporalio/activity';
import { findWorkflowEntry } from '../src/audit/audit-repository';
import type { AuditService } from '../src/audit/audit-service';
import type { Db } from '../src/db/knex';
import { takeAdvisoryLock } from '../src/db/advisory-lock';

export interface ProofActivityDeps {
  db: Db;
  audit: AuditService;
}

export function createProofActivities({ db, audit }: ProofActivityDeps) {
  return {
    async proofStep(input: { runId: string; step: number }): Promise<void> {
      Context.current().heartbeat(input.step);
      await db.raw('SELECT 1');
    },

    /** Idempotent: a retried attempt finds the entry its earlier attempt committed and returns it. */
    async recordProof(input: { runId: string; organizationId: string | null; workflowId: string; steps: number }) {
      return db.transaction(async (trx) => {
        await takeAdvisoryLock(trx, `proof:${input.workflowId}`);
        const existing = await findWorkflowEntry(trx, input.workflowId, 'system.proof.complete');
        if (existing) return existing;
        const entry = await audit.append(trx, {
          organizationId: input.organizationId,
          actorType: 'system',
          actor: 'worker',
          action: 'system.proof.complete',
          category: 'system',
          resourceType: 'workflow',
          resourceId: input.workflowId,
          workflowId: input.workflowId,
          details: { runId: input.runId, steps: input.steps },
        });
        return entry.id;
      });
    },
  };
}
