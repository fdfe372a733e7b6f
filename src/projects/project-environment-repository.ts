import type { Queryable } from '../db/knex';
import { insertOne, timestampsOf } from '../db/owned-rows';
import { catalogueEntries } from '../platform-config/environment-repository';
import { effectiveSyncPolicy, type EnvironmentArgoSettings, type SyncPolicy } from './argocd-settings';
import { takeAdvisoryLock } from '../db/advisory-lock';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';

export type KubernetesVersionSource = 'manual' | 'agent';

/** One environment of a project: a catalogue entry with the project's Kubernetes version and delivery settings. */
export interface ProjectEnvironment {
  id: string;
  /** The catalogue entry's slug (`/api/v2/org/environments`). */
  environment: string;
  name: string;
  production: boolean;
  /** 0-based place in the project's order. */
  position: number;
  kubernetesVersion: string;
  /** `agent` while the version follows the bound cluster's agent (src/clusters agent bindings); a manual change wins. */
  kubernetesVersionSource: KubernetesVersionSource;
  delivery: { validateOnPreview: boolean; validateOnGenerate: boolean };
  /** Where its Applications deploy (null: the project's template, the bound cluster); docs/argocd.md. */
  destination: { namespaceTemplate: string | null; server: string | null; allowSharedNamespace: boolean };
  /** The effective sync policy of its Applications (stored choices over the defaults). */
  syncPolicy: SyncPolicy;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  slug: string;
  name: string;
  production: boolean;
  position: number;
  kubernetes_version: string;
  kubernetes_version_source: KubernetesVersionSource;
  validate_on_preview: boolean;
  validate_on_generate: boolean;
  argocd: EnvironmentArgoSettings;
  created_at: Date;
  updated_at: Date;
}

function rowToEnvironment(row: Row): ProjectEnvironment {
  return {
    id: row.id,
    environment: row.slug,
    name: row.name,
    production: row.production,
    position: row.position,
    kubernetesVersion: row.kubernetes_version,
    kubernetesVersionSource: row.kubernetes_version_source,
    delivery: { validateOnPreview: row.validate_on_preview, validateOnGenerate: row.validate_on_generate },
    destination: {
      namespaceTemplate: row.argocd.destination?.namespaceTemplate ?? null,
      server: row.argocd.destination?.server ?? null,
      allowSharedNamespace: row.argocd.destination?.allowSharedNamespace ?? false,
    },
    syncPolicy: effectiveSyncPolicy(row.argocd, row.production),
    ...timestampsOf(row),
  };
}

function environments(db: Queryable, projectId: string) {
  return db('project_environments as pe')
    .join(catalogueEntries(db).as('e'), 'e.id', 'pe.environment_id')
    .where('pe.project_id', projectId)
    .select(
      'pe.id',
      'e.slug',
      'e.name',
      'e.production',
      'pe.position',
      'pe.kubernetes_version',
      'pe.kubernetes_version_source',
      'pe.validate_on_preview',
      'pe.validate_on_generate',
      'pe.argocd',
      'pe.created_at',
      'pe.updated_at',
    );
}

/** The project's environments in order, as a RowsQuery (read with others in one statement: delivery-model.ts). */
export function projectEnvironmentRows(db: Queryable, projectId: string): RowsQuery<ProjectEnvironment> {
  const query = environments(db, projectId).orderBy('pe.position');
  return rowsQuery<Row, ProjectEnvironment>(query, ['created_at', 'updated_at'], rowToEnvironment);
}

export function listProjectEnvironments(db: Queryable, projectId: string): Promise<ProjectEnvironment[]> {
  return readRows(projectEnvironmentRows(db, projectId));
}

/** The slugs of the organization's projects that use one environment catalogue entry, in order. */
export async function projectsUsingEnvironment(
  db: Queryable,
  organizationId: string,
  environmentId: string,
): Promise<string[]> {
  const rows = (await db('project_environments as pe')
    .join('projects as p', 'p.id', 'pe.project_id')
    .where({ 'p.organization_id': organizationId, 'pe.environment_id': environmentId })
    .orderBy('p.slug')
    .select('p.slug')) as { slug: string }[];
  return rows.map((r) => r.slug);
}

export async function findProjectEnvironment(db: Queryable, projectId: string, slug: string) {
  const row = (await environments(db, projectId).where('e.slug', slug).first()) as Row | undefined;
  return row ? rowToEnvironment(row) : null;
}

export async function insertProjectEnvironment(
  db: Queryable,
  ids: { organizationId: string; projectId: string; environmentId: string },
  input: { position: number; kubernetesVersion: string; validateOnPreview: boolean; validateOnGenerate: boolean },
): Promise<void> {
  await insertOne(
    db('project_environments')
      .insert({
        organization_id: ids.organizationId,
        project_id: ids.projectId,
        environment_id: ids.environmentId,
        position: input.position,
        kubernetes_version: input.kubernetesVersion,
        validate_on_preview: input.validateOnPreview,
        validate_on_generate: input.validateOnGenerate,
      })
      .returning('id'),
    'the environment is already part of this project',
  );
}

export async function updateProjectEnvironment(
  db: Queryable,
  id: string,
  changes: {
    kubernetes_version?: string;
    validate_on_preview?: boolean;
    validate_on_generate?: boolean;
    argocd?: EnvironmentArgoSettings;
  },
): Promise<void> {
  // A version set by a person stops following a bound cluster's agent.
  const source = changes.kubernetes_version === undefined ? {} : { kubernetes_version_source: 'manual' };
  const argocd = changes.argocd === undefined ? {} : { argocd: JSON.stringify(changes.argocd) };
  await db('project_environments')
    .where({ id })
    .update({ ...changes, ...argocd, ...source, updated_at: db.fn.now() });
}

/** The project environments (by id, of one organization) whose Kubernetes version follows the agent from now on. */
export async function followAgentVersion(db: Queryable, organizationId: string, ids: string[], version: string | null) {
  const rows = db('project_environments').where({ organization_id: organizationId }).whereIn('id', ids);
  const changes = version === null ? {} : { kubernetes_version: version };
  await rows.update({ ...changes, kubernetes_version_source: 'agent', updated_at: db.fn.now() });
}

/**
 * The agent reported `version`: environments that follow the agent take it. The ids of the environments that changed.
 */
export async function applyAgentVersion(db: Queryable, organizationId: string, ids: string[], version: string) {
  const rows = (await db('project_environments')
    .where({ organization_id: organizationId, kubernetes_version_source: 'agent' })
    .whereIn('id', ids)
    .whereNot({ kubernetes_version: version })
    .update({ kubernetes_version: version, updated_at: db.fn.now() })
    .returning('id')) as { id: string }[];
  return rows.map((r) => r.id);
}

/** Removes one and closes the gap in the order. */
export async function deleteProjectEnvironment(db: Queryable, projectId: string, env: ProjectEnvironment) {
  await db('project_environments').where({ id: env.id }).delete();
  await db('project_environments')
    .where({ project_id: projectId })
    .where('position', '>', env.position)
    .decrement('position', 1);
}

/** Serialises order changes of one project's environments. */
export async function lockProjectEnvironments(db: Queryable, projectId: string): Promise<void> {
  await takeAdvisoryLock(db, `project-environments:${projectId}`);
}

/** The stored Argo CD settings of one project environment (what a change merges into). */
export async function environmentArgoSettings(db: Queryable, id: string): Promise<EnvironmentArgoSettings> {
  const row = (await db('project_environments').where({ id }).first('argocd')) as
    { argocd: EnvironmentArgoSettings } | undefined;
  return row?.argocd ?? {};
}
