import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import type { Page, PageRequest } from '../db/pagination';
import type { OrgCaller } from '../iam/caller';
import { workflowActor } from '../temporal/workflow-rows';
import { findExampleItem, insertExampleItem, listExampleItems, type ExampleItem } from './example-repository';
import type { ExampleItemInput } from './example-workflow-contract';

export type ExampleService = ReturnType<typeof createExampleService>;

/**
 * The example domain's service, as `npm run new-domain` writes it: every read scoped to the caller's organization,
 * every change with its audit entry in the same transaction; the queries are in the repository beside it.
 */
export function createExampleService({ db, audit }: { db: Db; audit: AuditService }) {
  return {
    list: (caller: OrgCaller, page: PageRequest): Promise<Page<ExampleItem>> =>
      listExampleItems(db, caller.organizationId, page),

    /**
     * The example item workflow's one change (its activity): the item and its audit entry. A retried attempt finds
     * the item its earlier attempt added and answers it, with no second entry.
     */
    add(input: ExampleItemInput, workflowId: string): Promise<ExampleItem> {
      return db.transaction(async (trx) => {
        const added = await insertExampleItem(trx, input.organizationId, { id: input.itemId, name: input.name });
        if (!added) return (await findExampleItem(trx, input.organizationId, input.itemId))!;
        await audit.append(trx, {
          ...workflowActor('exampleItemWorkflow'),
          organizationId: input.organizationId,
          action: 'example.item.add',
          category: 'configuration',
          resourceType: 'example-item',
          resourceId: added.id,
          workflowId,
          details: { name: added.name },
        });
        return added;
      });
    },
  };
}
