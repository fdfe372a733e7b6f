import type { Knex } from 'knex';
import type { Queryable } from '../db/knex';
import { rowsQuery, type RowsQuery } from '../db/rows-together';

export interface WebhookSettingsRow {
  project_id: string;
  organization_id: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  auto_update_environments: string[];
  image_filter: string | null;
  tag_filter: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function findSettings(db: Queryable, projectId: string): Promise<WebhookSettingsRow | null> {
  return ((await db('webhook_settings').where({ project_id: projectId }).first()) as WebhookSettingsRow) ?? null;
}

/** Settings of the given projects (the candidates of a request), keyed by project id. */
/**
 * The settings of the projects a select of project ids names, as a RowsQuery: a signed request's candidates and their
 * secrets in one statement (issue 46).
 */
export function settingsRows(db: Queryable, projectIds: Knex.QueryBuilder): RowsQuery<WebhookSettingsRow> {
  const query = db('webhook_settings').whereIn('project_id', projectIds).select('*');
  return rowsQuery<WebhookSettingsRow, WebhookSettingsRow>(
    query,
    ['previous_secret_expires_at', 'created_at', 'updated_at'],
    (row) => row,
  );
}

export async function upsertSettings(
  db: Queryable,
  row: Omit<WebhookSettingsRow, 'created_at' | 'updated_at' | 'previous_secret_sealed' | 'previous_secret_expires_at'>,
): Promise<WebhookSettingsRow> {
  const [saved] = (await db('webhook_settings')
    .insert(row)
    .onConflict('project_id')
    .merge({
      auto_update_environments: row.auto_update_environments,
      image_filter: row.image_filter,
      tag_filter: row.tag_filter,
      updated_at: db.raw('now()'),
    })
    .returning('*')) as WebhookSettingsRow[];
  return saved!;
}

/** A new secret; the one it replaces keeps verifying until `previousUntil`. */
export async function rotateSecret(
  db: Queryable,
  projectId: string,
  sealed: string,
  previousSealed: string,
  previousUntil: Date,
): Promise<void> {
  await db('webhook_settings')
    .where({ project_id: projectId })
    .update({
      secret_sealed: sealed,
      previous_secret_sealed: previousSealed,
      previous_secret_expires_at: previousUntil,
      updated_at: db.raw('now()'),
    });
}

export async function deleteSettings(db: Queryable, projectId: string): Promise<boolean> {
  return (await db('webhook_settings').where({ project_id: projectId }).delete()) > 0;
}
