import type { Queryable } from '../db/knex';
import type { Knex } from 'knex';
import { insertOne } from '../db/owned-rows';
import { isoText, isoTimestamp } from '../db/iso-timestamp';
import { compiledStatements } from '../db/compiled-statements';
import { keysetOrder, keysetParams, keysetResult, type Page, type PageRequest } from '../db/pagination';
import { organizationSlugs } from '../orgs/org-repository';
import { rowsQuery, type RowsQuery } from '../db/rows-together';
import { DEFAULT_NAMESPACE_TEMPLATE, type ProjectArgoSettings } from './argocd-settings';

export type ValidationMode = 'block' | 'warn';

/**
 * The project policy record: what delivery generation and releases do with validation errors and deprecations, and
 * whether a release deploys by itself once validated and approved (`releases.autoDeploy`) or waits for a deploy call.
 */
export interface ProjectPolicy {
  validation: { errors: ValidationMode; deprecations: ValidationMode };
  releases: { autoDeploy: boolean };
}

export interface PolicyChanges {
  validation?: Partial<ProjectPolicy['validation']>;
  releases?: Partial<ProjectPolicy['releases']>;
}

export interface EffectiveProjectArgo {
  namespaceTemplate: string;
  appProject: { perTenant: boolean; clusterResources: boolean };
}

export interface Project {
  id: string;
  organizationId: string;
  /** Slug of the owning organization: part of the Git URL. */
  organizationSlug: string;
  slug: string;
  name: string;
  description: string;
  archived: boolean;
  archivedAt: string | null;
  policy: ProjectPolicy;
  /** Argo CD settings with their defaults (docs/argocd.md). */
  argocd: EffectiveProjectArgo;
  createdAt: string;
  updatedAt: string;
}

interface ProjectRow {
  id: string;
  organization_id: string;
  organization_slug: string;
  slug: string;
  name: string;
  description: string;
  /** Dates, or ISO text where the statement spelled them (isoTimestamp). */
  archived_at: Date | string | null;
  validation_errors: ValidationMode;
  validation_deprecations: ValidationMode;
  release_auto_deploy: boolean;
  argocd: ProjectArgoSettings;
  created_at: Date | string;
  updated_at: Date | string;
}

function rowToProject(row: ProjectRow): Project {
  return {
    id: row.id,
    organizationId: row.organization_id,
    organizationSlug: row.organization_slug,
    slug: row.slug,
    name: row.name,
    description: row.description,
    archived: row.archived_at !== null,
    archivedAt: row.archived_at === null ? null : isoText(row.archived_at),
    policy: {
      validation: { errors: row.validation_errors, deprecations: row.validation_deprecations },
      releases: { autoDeploy: row.release_auto_deploy },
    },
    argocd: {
      namespaceTemplate: row.argocd.namespaceTemplate ?? DEFAULT_NAMESPACE_TEMPLATE,
      appProject: {
        perTenant: row.argocd.appProject?.perTenant ?? false,
        clusterResources: row.argocd.appProject?.clusterResources ?? false,
      },
    },
    createdAt: isoText(row.created_at),
    updatedAt: isoText(row.updated_at),
  };
}

/** The project rows of an organization; `isoTimes` has PostgreSQL spell the timestamps (the listing's hot path). */
function projects(db: Queryable, organizationId: string, isoTimes = false) {
  const time = (column: string, alias: string) => (isoTimes ? isoTimestamp(db, column, alias) : column);
  return db('projects as p')
    .join(organizationSlugs(db).as('o'), 'o.id', 'p.organization_id')
    .leftJoin('project_policies as pp', 'pp.project_id', 'p.id')
    .where('p.organization_id', organizationId)
    .select(
      'p.id',
      'p.organization_id',
      'o.slug as organization_slug',
      'p.slug',
      'p.name',
      'p.description',
      time('p.archived_at', 'archived_at'),
      'p.argocd',
      db.raw("coalesce(pp.validation_errors, 'block') as validation_errors"),
      db.raw("coalesce(pp.validation_deprecations, 'warn') as validation_deprecations"),
      db.raw('coalesce(pp.release_auto_deploy, true) as release_auto_deploy'),
      time('p.created_at', 'created_at'),
      time('p.updated_at', 'updated_at'),
    );
}

export async function insertProject(
  db: Queryable,
  organizationId: string,
  input: { slug: string; name: string; description: string },
): Promise<string> {
  const row = await insertOne<{ id: string }>(
    db('projects')
      .insert({ organization_id: organizationId, ...input })
      .returning('id'),
    'a project with this slug already exists',
  );
  await db('project_policies').insert({ project_id: row.id, organization_id: organizationId });
  return row.id;
}

export async function findProjectBySlug(db: Queryable, organizationId: string, slug: string): Promise<Project | null> {
  const row = (await projects(db, organizationId).where('p.slug', slug).first()) as ProjectRow | undefined;
  return row ? rowToProject(row) : null;
}

/** The project by id as a RowsQuery (read with others in one statement: src/gitops/delivery-model.ts). */
export function projectRows(db: Queryable, organizationId: string, id: string): RowsQuery<Project> {
  return rowsQuery(projects(db, organizationId, true).where('p.id', id), [], rowToProject);
}

export async function findProjectById(db: Queryable, organizationId: string, id: string): Promise<Project | null> {
  const row = (await projects(db, organizationId).where('p.id', id).first()) as ProjectRow | undefined;
  return row ? rowToProject(row) : null;
}

/** Projects of the organization by id in one query: the projects of a page of another module's rows. */
export async function findProjectsByIds(db: Queryable, organizationId: string, ids: string[]) {
  const rows = (await projects(db, organizationId).whereIn('p.id', [...new Set(ids)])) as ProjectRow[];
  return new Map(rows.map((row) => [row.id, rowToProject(row)]));
}

/**
 * Every project of every organization, by id (the Git volume's one-time adoption, src/gitops/volume-guard.ts: the
 * repositories the database names). Not a request path: nothing scoped by a caller reads it.
 */
export async function allProjectRefs(db: Queryable): Promise<{ organizationId: string; projectId: string }[]> {
  const rows = (await db('projects').select('id', 'organization_id')) as { id: string; organization_id: string }[];
  return rows.map((row) => ({ organizationId: row.organization_id, projectId: row.id }));
}

export interface ProjectFilter {
  /** Substring of slug or name, case-insensitive. */
  q?: string;
  archived?: boolean;
}

const listings = compiledStatements();

export async function listProjects(
  db: Queryable,
  organizationId: string,
  filter: ProjectFilter,
  page: PageRequest,
): Promise<Page<Project>> {
  const { after, take } = keysetParams(page);
  const like = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const params = {
    organizationId,
    take,
    ...(like === undefined ? {} : { like }),
    ...(after === undefined ? {} : { afterSlug: after[0], afterId: after[1] }),
  };
  // The archived filter adds no parameter, so it is part of the shape.
  const shape = `${like === undefined ? '' : 'q'}/${String(filter.archived)}/${after === undefined ? '' : 'after'}`;
  const rows = await listings.rows<ProjectRow, typeof params & { like?: string; afterSlug?: string; afterId?: string }>(
    db,
    shape,
    params,
    (p) => {
      const query = projects(db, p.organizationId, true);
      const q = p.like;
      if (q !== undefined) void query.where((w) => void w.whereILike('p.slug', q).orWhereILike('p.name', q));
      if (filter.archived !== undefined) {
        void (filter.archived ? query.whereNotNull('p.archived_at') : query.whereNull('p.archived_at'));
      }
      const from =
        p.afterSlug !== undefined && p.afterId !== undefined ? ([p.afterSlug, p.afterId] as const) : undefined;
      return keysetOrder(query, ['p.slug', 'p.id'], from, p.take);
    },
  );
  return keysetResult(rows, page, (r) => [r.slug, r.id], rowToProject);
}

/** False when the project is gone. */
export async function updateProject(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string; archived_at?: Date | null; argocd?: ProjectArgoSettings },
): Promise<boolean> {
  const argocd = changes.argocd === undefined ? {} : { argocd: JSON.stringify(changes.argocd) };
  const count = await db('projects')
    .where({ organization_id: organizationId, id })
    .update({ ...changes, ...argocd, updated_at: db.fn.now() });
  return count > 0;
}

export async function updatePolicy(db: Queryable, projectId: string, changes: PolicyChanges): Promise<void> {
  const { validation = {}, releases = {} } = changes;
  await db('project_policies')
    .where({ project_id: projectId })
    .update({
      ...(validation.errors ? { validation_errors: validation.errors } : {}),
      ...(validation.deprecations ? { validation_deprecations: validation.deprecations } : {}),
      ...(releases.autoDeploy !== undefined ? { release_auto_deploy: releases.autoDeploy } : {}),
      updated_at: db.fn.now(),
    });
}

/** Environments, tenants, workloads and the policy go with it (ON DELETE CASCADE). */
export async function deleteProject(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await db('projects').where({ organization_id: organizationId, id }).delete()) > 0;
}

/** Projects with this slug in any organization (the inbound webhook's shape B names a project by slug only). */
export function projectsBySlug(db: Queryable, slug: string): Knex.QueryBuilder {
  return db('projects').where({ slug });
}
