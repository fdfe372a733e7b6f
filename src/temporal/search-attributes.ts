import type { ConnectionLike } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_DECLARATIONS } from './definitions';

type Operator = Pick<ConnectionLike, 'operatorService'>;

/** Registers the given custom search attributes (all Keyword) through the operator API. */
export async function registerSearchAttributes(
  connection: Operator,
  namespace: string,
  names: string[] = SEARCH_ATTRIBUTE_DECLARATIONS.map((sa) => sa.name),
): Promise<string[]> {
  if (names.length === 0) return [];
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(names.map((name) => [name, keyword])),
  });
  return names;
}

/**
 * Registers the platform's custom search attributes when missing (idempotent). The embedded dev server gets them
 * as start flags; against an external cluster the worker runs this at start, which needs operator permission.
 */
export async function ensureSearchAttributes(connection: Operator, namespace: string): Promise<string[]> {
  return registerSearchAttributes(connection, namespace, await missingSearchAttributes(connection, namespace));
}

/** The platform's custom search attributes the namespace lacks (an unregistered one fails every start using it). */
export async function missingSearchAttributes(connection: Operator, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  return SEARCH_ATTRIBUTE_DECLARATIONS.filter((sa) => !known.has(sa.name)).map((sa) => sa.name);
}
