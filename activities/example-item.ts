import type { ExampleService } from '../src/domain-template/example-service';
import type { ExampleItemInput } from '../src/domain-template/example-workflow-contract';

/**
 * The example item workflow's activities, as `npm run new-domain` writes them (and lists them in
 * activities/domain-activities.ts): its change, made by the domain's service.
 */
export function createExampleItemActivities({ example }: { example: ExampleService }) {
  return {
    addExampleItem: ({ workflowId, ...input }: ExampleItemInput & { workflowId: string }) =>
      example.add(input, workflowId),
  };
}
