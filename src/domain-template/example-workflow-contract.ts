/**
 * The example item workflow (workflows/example-item.ts): one workflow `example-item-<id>` per item it adds. Imported by
 * workflow code, so it stays free of Node built-ins and I/O.
 */
import { workflowType } from '../temporal/workflow-type';
import type { ExampleItem } from './example-repository';

export function exampleItemWorkflowId(itemId: string): string {
  return `example-item-${itemId}`;
}

export interface ExampleItemInput {
  organizationId: string;
  /** Chosen by the starter: a retried activity finds the row its earlier attempt added under it. */
  itemId: string;
  name: string;
}

/** The example item workflow by its registered type (src/temporal/workflow-type.ts). */
export const exampleItemWorkflowType =
  workflowType<(input: ExampleItemInput) => Promise<ExampleItem>>()('exampleItemWorkflow');
