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

const COLUMNS = ['id', 'name', 'created_at'];

function rowToItem(row: ExampleItemRow): ExampleItem {
  return { id: row.id, name: row.name, createdAt: row.created_at.toISOString() };
}

/** The organization's items by name, a keyset page at a time (src/db/pagination.ts). */
export function listExampleItems(db: Queryable, organizationId: string, page: PageRequest): Promise<Page<ExampleItem>> {
  return keysetPage<ExampleItemRow, ExampleItem>(
    db('example_items').where({ organization_id: organizationId }).select(COLUMNS),
    ['name', 'id'],
    page,
    (row) => [row.name, row.id],
    rowToItem,
  );
}

export async function findExampleItem(db: Queryable, organizationId: string, id: string): Promise<ExampleItem | null> {
  const row = (await db('example_items').where({ organization_id: organizationId, id }).first(COLUMNS)) as
    ExampleItemRow | undefined;
  return row ? rowToItem(row) : null;
}

/** Adds the item; null when its id is taken (an earlier attempt of the same change added it). */
export async function insertExampleItem(
  db: Queryable,
  organizationId: string,
  item: { id: string; name: string },
): Promise<ExampleItem | null> {
  const [row] = (await db('example_items')
    .insert({ id: item.id, organization_id: organizationId, name: item.name })
    .onConflict('id')
    .ignore()
    .returning(COLUMNS)) as ExampleItemRow[];
  return row ? rowToItem(row) : null;
}
