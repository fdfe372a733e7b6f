import type { OrgCaller } from '../iam/caller';

export interface ExampleItem {
  id: string;
  name: string;
}

export type ExampleService = ReturnType<typeof createExampleService>;

/**
 * The template's service (docs/CONTRIBUTING-SPINE.md, "A new domain"): every read scoped to the caller's organization,
 * every change with its audit entry in the same transaction. Replace the in-memory list with the domain's repository.
 */
export function createExampleService() {
  const items = new Map<string, ExampleItem[]>();
  return {
    async list(caller: OrgCaller): Promise<ExampleItem[]> {
      return items.get(caller.organizationId) ?? [];
    },
  };
}
