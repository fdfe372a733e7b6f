import { isUniqueViolation, type Queryable } from '../db/knex';
import { Conflict } from '../errors';
import { deleteOwned, insertOne, timestampsOf, updateOwned } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';

/** The kinds of metric source verification can query (a Prometheus-compatible HTTP API). */
export type MetricSourceKind = 'prometheus';

/** An organization's metric source (table metric_sources); the bearer token stays sealed here. */
export interface MetricSourceRecord {
  id: string;
  name: string;
  kind: MetricSourceKind;
  url: string;
  tokenSealed: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  name: string;
  kind: MetricSourceKind;
  url: string;
  token_sealed: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'name', 'kind', 'url', 'token_sealed', 'created_at', 'updated_at'];

const toRecord = (r: Row): MetricSourceRecord => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  url: r.url,
  tokenSealed: r.token_sealed,
  ...timestampsOf(r),
});

const sources = (db: Queryable, organizationId: string) =>
  db('metric_sources').where('organization_id', organizationId).select(COLUMNS);

const DUPLICATE = 'a metric source with this name already exists';

export async function insertMetricSource(
  db: Queryable,
  organizationId: string,
  input: {
    id: string;
    name: string;
    kind: MetricSourceKind;
    url: string;
    tokenSealed: string | null;
    createdBy: string | null;
  },
): Promise<MetricSourceRecord> {
  const row = await insertOne<Row>(
    db('metric_sources')
      .insert({
        id: input.id,
        organization_id: organizationId,
        name: input.name,
        kind: input.kind,
        url: input.url,
        token_sealed: input.tokenSealed,
        created_by: input.createdBy,
      })
      .returning(COLUMNS),
    DUPLICATE,
  );
  return toRecord(row);
}

export async function findMetricSource(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<MetricSourceRecord | null> {
  const row = (await sources(db, organizationId).where('id', id).first()) as Row | undefined;
  return row ? toRecord(row) : null;
}

export async function findMetricSourceByName(
  db: Queryable,
  organizationId: string,
  name: string,
): Promise<MetricSourceRecord | null> {
  const row = (await sources(db, organizationId).where('name', name).first()) as Row | undefined;
  return row ? toRecord(row) : null;
}

export function listMetricSources(
  db: Queryable,
  organizationId: string,
  page: PageRequest,
): Promise<Page<MetricSourceRecord>> {
  return keysetPage<Row, MetricSourceRecord>(
    sources(db, organizationId),
    ['name', 'id'],
    page,
    (r) => [r.name, r.id],
    toRecord,
  );
}

/** False when the source is gone (deleted meanwhile); a name taken by another source answers 409. */
export async function updateMetricSource(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: { name?: string; url?: string; token_sealed?: string | null },
): Promise<boolean> {
  try {
    return await updateOwned(db, 'metric_sources', organizationId, id, changes);
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(DUPLICATE);
    throw err;
  }
}

export function deleteMetricSource(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return deleteOwned(db, 'metric_sources', organizationId, id);
}
