import type { components, paths } from '../../../client/openapi-types.generated';

/** A request body schema of the served OpenAPI document, by name (`permission-create`, `cluster-command`, ...). */
export type RequestSchema<K extends keyof components['schemas']> = components['schemas'][K];

/** The audit log's filters: the query of GET /api/v2/audit-logs less its paging. */
export type AuditFilters = Omit<
  NonNullable<paths['/api/v2/audit-logs']['get']['parameters']['query']>,
  'cursor' | 'limit'
>;
