import type { Workflow } from '@temporalio/common';

/**
 * A workflow named by the type the worker registers, with the function type it runs: domain code starts and signals
 * workflows through it (src/temporal/start-workflow.ts) without importing workflows/, so the layers point one way.
 * Declared in the domain's workflow contract; test/unit/temporal/workflow-types.test.ts holds each against the
 * function of that name workflows/index.ts exports. Free of Node built-ins (workflow code imports the contracts).
 */
export interface WorkflowType<W extends Workflow, N extends string = string> {
  readonly name: N;
  /** Never set: carries the function type for the starter's argument check. */
  readonly workflow?: W;
}

export function workflowType<W extends Workflow>() {
  return <N extends string>(name: N): WorkflowType<W, N> => ({ name });
}
