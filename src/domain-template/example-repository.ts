import type { Queryable } from '../db/knex';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';

export interface ExampleItem {
  id: string;
  name: string;
  createdAt: string;
}

interface ExampleItemRow {
  id: string;
  name: string;
  created_at: Date;
}

function rowToItem(row: ExampleItemRow): ExampleItem {
  return { id: row.id, name: row.name, createdAt: row.created_at.toISOString() };
}

/** The organization's items by name, a keyset page at a time (src/db/pagination.ts). */
export function listExampleItems(db: Queryable, organizationId: string, page: PageRequest): Promise<Page<ExampleItem>> {
  return keysetPage<ExampleItemRow, ExampleItem>(
    db('example_items').where({ organization_id: organizationId }).select('id', 'name', 'created_at'),
    ['name', 'id'],
    page,
    (row) => [row.name, row.id],
    rowToItem,
  );
}
