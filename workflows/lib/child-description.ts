import { workflowInfo } from '@temporalio/workflow';
import { SEARCH_ATTRIBUTES } from '../../src/temporal/definitions';
import { startDescription, type StartDescription, type WorkflowLabels } from '../../src/temporal/workflow-labels';

/**
 * The search attributes, summary and details of a workflow that another workflow starts, as the API's starts have them
 * (src/temporal/start-workflow.ts): organization, project, tenant and environment by id, the slugs the parent carries
 * (the same organization; the project's only when it is the parent's), the summary `org/project: what`, with no e-mail
 * address in any of them. Options only: they change no command a replay compares.
 */
export function childDescription(
  labels: WorkflowLabels,
  what: string,
  extra: { searchAttributes?: StartDescription['typedSearchAttributes']; details?: string } = {},
): StartDescription {
  const parent = workflowInfo().typedSearchAttributes;
  const sameProject = labels.projectId != null && parent.get(SEARCH_ATTRIBUTES.projectId) === labels.projectId;
  const slugs = {
    organization: parent.get(SEARCH_ATTRIBUTES.organizationSlug) ?? null,
    project: sameProject ? (parent.get(SEARCH_ATTRIBUTES.projectSlug) ?? null) : null,
  };
  return startDescription(
    { labels, summary: what, searchAttributes: extra.searchAttributes, details: extra.details },
    slugs,
  );
}
