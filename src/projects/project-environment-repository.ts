import type { Queryable } from '../db/knex';
import { insertOne, timestampsOf } from '../db/owned-rows';
import { catalogueEntries } from '../platform-config/environment-repository';

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
  delivery: { validateOnPreview: boolean; validateOnGenerate: boolean };
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
  validate_on_preview: boolean;
  validate_on_generate: boolean;
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
    delivery: { validateOnPreview: row.validate_on_preview, validateOnGenerate: row.validate_on_generate },
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
      'pe.validate_on_preview',
      'pe.validate_on_generate',
      'pe.created_at',
      'pe.updated_at',
    );
}

export async function listProjectEnvironments(db: Queryable, projectId: string): Promise<ProjectEnvironment[]> {
  return ((await environments(db, projectId).orderBy('pe.position')) as Row[]).map(rowToEnvironment);
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
  changes: { kubernetes_version?: string; validate_on_preview?: boolean; validate_on_generate?: boolean },
): Promise<void> {
  await db('project_environments')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() });
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
  await db.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`project-environments:${projectId}`]);
}
