/** The proof workflow (workflows/proof.ts): API -> Temporal -> worker -> activity -> PostgreSQL for one organization. */
import { defineQuery } from '@temporalio/workflow';
import { workflowType } from '../temporal/workflow-type';

export function proofWorkflowId(organizationId: string, runId: string): string {
  return `proof-${organizationId}-${runId}`;
}

export interface ProofInput {
  runId: string;
  organizationId: string | null;
  steps: number;
  stepDelayMs: number;
}

export interface ProofResult {
  runId: string;
  stepsCompleted: number;
  auditEntryId: string;
}

export const proofProgressQuery = defineQuery<number>('proofProgress');

/** The proof workflow by its registered type. */
export const proofWorkflowType = workflowType<(input: ProofInput) => Promise<ProofResult>>()('proofWorkflow');
