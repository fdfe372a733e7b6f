import type { Db } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import type { OrgCaller } from '../iam/caller';
import { listExampleItems, type ExampleItem } from './example-repository';

export type ExampleService = ReturnType<typeof createExampleService>;

/**
 * The template's service (docs/CONTRIBUTING-SPINE.md, "A new domain"): every read scoped to the caller's organization,
 * every change with its audit entry in the same transaction; the queries are in the repository beside it.
 */
export function createExampleService({ db }: { db: Db }) {
  return {
    list: (caller: OrgCaller, page: PageRequest): Promise<Page<ExampleItem>> =>
      listExampleItems(db, caller.organizationId, page),
  };
}
