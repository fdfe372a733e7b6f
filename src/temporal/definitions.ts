/**
 * Shared by API, workers and workflows: task queues and search attribute keys. Each domain's workflow inputs,
 * updates, queries and failure types live in its own `src/<domain>/<domain>-workflow-contract.ts`.
 * Imported by workflow code, so it must stay free of Node built-ins and I/O.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const TASK_QUEUES = {
  platform: 'platform',
  git: 'git',
} as const;

export type TaskQueueName = keyof typeof TASK_QUEUES;

export function taskQueue(prefix: string, name: TaskQueueName): string {
  return `${prefix}${TASK_QUEUES[name]}`;
}

export const SEARCH_ATTRIBUTES = {
  organizationId: defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD),
  organizationSlug: defineSearchAttributeKey('OrganizationSlug', SearchAttributeType.KEYWORD),
  projectId: defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD),
  projectSlug: defineSearchAttributeKey('ProjectSlug', SearchAttributeType.KEYWORD),
  tenantId: defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD),
  /** The tenant as people name it: ops find a tenant's workflows by slug, not by UUID (issue 50). */
  tenantSlug: defineSearchAttributeKey('TenantSlug', SearchAttributeType.KEYWORD),
  environment: defineSearchAttributeKey('Environment', SearchAttributeType.KEYWORD),
  releaseId: defineSearchAttributeKey('ReleaseId', SearchAttributeType.KEYWORD),
  resourceStatus: defineSearchAttributeKey('ResourceStatus', SearchAttributeType.KEYWORD),
} as const;

/** `--search-attribute` values for `temporal server start-dev` and the operator API. */
export const SEARCH_ATTRIBUTE_DECLARATIONS: ReadonlyArray<{ name: string; type: 'Keyword' }> = Object.values(
  SEARCH_ATTRIBUTES,
).map((key) => ({ name: key.name, type: 'Keyword' as const }));
