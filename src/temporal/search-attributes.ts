import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_DECLARATIONS } from './definitions';

/**
 * Registers the platform's custom search attributes when missing (idempotent). The embedded dev server gets them
 * as start flags; against an external cluster this runs at worker start and needs operator permission.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = SEARCH_ATTRIBUTE_DECLARATIONS.filter((sa) => !known.has(sa.name));
  if (missing.length === 0) return [];
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((sa) => [sa.name, keyword])),
  });
  return missing.map((sa) => sa.name);
}
