import type { Queryable } from '../db/knex';
import { insertOne, timestampsOf } from '../db/owned-rows';
import { updateUnique } from '../db/unique-update';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import type { PolicyMode, PolicyRule } from './policy-rules';

/** A manifest policy of one project: its rules, each in its own mode or the policy's. */
export interface Policy {
  id: string;
  projectId: string;
  name: string;
  description: string;
  mode: PolicyMode;
  enabled: boolean;
  rules: StoredRule[];
  createdAt: string;
  updatedAt: string;
}

/** A rule as stored: its mode is optional and falls back to the policy's (see `effectiveRules`). */
export type StoredRule = PolicyRule extends infer R
  ? R extends PolicyRule
    ? Omit<R, 'mode'> & { mode?: PolicyMode }
    : never
  : never;

interface Row {
  id: string;
  project_id: string;
  name: string;
  description: string;
  mode: PolicyMode;
  enabled: boolean;
  rules: StoredRule[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'project_id', 'name', 'description', 'mode', 'enabled', 'rules', 'created_at', 'updated_at'];

function rowToPolicy(row: Row): Policy {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    description: row.description,
    mode: row.mode,
    enabled: row.enabled,
    rules: row.rules,
    ...timestampsOf(row),
  };
}

/** The rules to run, each with its mode resolved. */
export function effectiveRules(policy: Pick<Policy, 'mode' | 'rules'>): PolicyRule[] {
  return policy.rules.map((rule) => ({ ...rule, mode: rule.mode ?? policy.mode }) as PolicyRule);
}

export type PolicyInput = Pick<Policy, 'projectId' | 'name' | 'description' | 'mode' | 'enabled' | 'rules'>;

const policies = (db: Queryable, organizationId: string) =>
  db('policies').where('organization_id', organizationId).select(COLUMNS);

export async function insertPolicy(db: Queryable, organizationId: string, input: PolicyInput): Promise<Policy> {
  const row = await insertOne<Row>(
    db('policies')
      .insert({
        organization_id: organizationId,
        project_id: input.projectId,
        name: input.name,
        description: input.description,
        mode: input.mode,
        enabled: input.enabled,
        rules: JSON.stringify(input.rules),
      })
      .returning(COLUMNS),
    'the project already has a policy with this name',
    'project not found',
  );
  return rowToPolicy(row);
}

export async function findPolicy(db: Queryable, organizationId: string, id: string): Promise<Policy | null> {
  const row = (await policies(db, organizationId).where('id', id).first()) as Row | undefined;
  return row ? rowToPolicy(row) : null;
}

export function listPolicies(
  db: Queryable,
  organizationId: string,
  filter: { projectId?: string },
  page: PageRequest,
): Promise<Page<Policy>> {
  const query = policies(db, organizationId);
  if (filter.projectId) void query.where('project_id', filter.projectId);
  return keysetPage<Row, Policy>(query, ['name', 'id'], page, (r) => [r.name, r.id], rowToPolicy);
}

/** Enabled policies of a project, for evaluation (bounded: a project has few policies). */
export async function enabledPoliciesOf(db: Queryable, organizationId: string, projectId: string): Promise<Policy[]> {
  const rows = (await policies(db, organizationId)
    .where({ project_id: projectId, enabled: true })
    .orderBy([{ column: 'name' }, { column: 'id' }])
    .limit(MAX_POLICIES_PER_PROJECT)) as Row[];
  return rows.map(rowToPolicy);
}

/** A project holds at most this many policies (checked on create). */
export const MAX_POLICIES_PER_PROJECT = 100;

export async function countPoliciesOf(db: Queryable, projectId: string): Promise<number> {
  const row = (await db('policies').where('project_id', projectId).count('* as n').first()) as { n: string };
  return Number(row.n);
}

/** False when the policy is gone. A rename onto a sibling's name answers 409. */
export async function updatePolicy(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: Partial<Omit<PolicyInput, 'projectId'>>,
): Promise<boolean> {
  const { rules, ...rest } = changes;
  return updateUnique(
    db('policies')
      .where({ organization_id: organizationId, id })
      .update({ ...rest, ...(rules ? { rules: JSON.stringify(rules) } : {}), updated_at: db.fn.now() }),
    'the project already has a policy with this name',
  );
}

export async function deletePolicy(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await db('policies').where({ organization_id: organizationId, id }).delete()) > 0;
}
