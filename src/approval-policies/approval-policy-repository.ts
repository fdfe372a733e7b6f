import type { Queryable } from '../db/knex';
import { insertOne, timestampsOf } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import { updateUnique } from '../db/unique-update';
import type { ApprovalPolicySnapshot } from './approval-decision';

/** An approval policy as stored and shown (without the project slug, which the service adds). */
export type ApprovalPolicy = ApprovalPolicySnapshot & { createdAt: string; updatedAt: string };

export type ApprovalPolicyInput = Omit<ApprovalPolicySnapshot, 'id'>;

interface Row {
  id: string;
  project_id: string;
  name: string;
  environments: string[];
  tenant_ids: string[] | null;
  required_approvals: number;
  eligible_approvers: ApprovalPolicySnapshot['eligibleApprovers'];
  allow_self_approval: boolean;
  expires_after_minutes: number | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
  'id',
  'project_id',
  'name',
  'environments',
  'tenant_ids',
  'required_approvals',
  'eligible_approvers',
  'allow_self_approval',
  'expires_after_minutes',
  'enabled',
  'created_at',
  'updated_at',
];

function rowToPolicy(row: Row): ApprovalPolicy {
  return {
    id: row.id,
    name: row.name,
    projectId: row.project_id,
    environments: row.environments,
    tenantIds: row.tenant_ids,
    requiredApprovals: row.required_approvals,
    eligibleApprovers: row.eligible_approvers,
    allowSelfApproval: row.allow_self_approval,
    expiresAfterMinutes: row.expires_after_minutes,
    enabled: row.enabled,
    ...timestampsOf(row),
  };
}

function columnsOf(input: Partial<ApprovalPolicyInput>) {
  const json = (v: unknown) => (v === undefined ? undefined : v === null ? null : JSON.stringify(v));
  const columns = {
    project_id: input.projectId,
    name: input.name,
    environments: json(input.environments),
    tenant_ids: json(input.tenantIds),
    required_approvals: input.requiredApprovals,
    eligible_approvers: json(input.eligibleApprovers),
    allow_self_approval: input.allowSelfApproval,
    expires_after_minutes: input.expiresAfterMinutes,
    enabled: input.enabled,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

const policies = (db: Queryable, organizationId: string) =>
  db('approval_policies').where('organization_id', organizationId).select(COLUMNS);

const CONFLICT = 'the project already has an approval policy with this name';

export async function insertApprovalPolicy(
  db: Queryable,
  organizationId: string,
  input: ApprovalPolicyInput,
): Promise<ApprovalPolicy> {
  const row = await insertOne<Row>(
    db('approval_policies')
      .insert({ organization_id: organizationId, ...columnsOf(input) })
      .returning(COLUMNS),
    CONFLICT,
    'project not found',
  );
  return rowToPolicy(row);
}

export async function findApprovalPolicy(db: Queryable, organizationId: string, id: string) {
  const row = (await policies(db, organizationId).where('id', id).first()) as Row | undefined;
  return row ? rowToPolicy(row) : null;
}

export function listApprovalPolicies(
  db: Queryable,
  organizationId: string,
  filter: { projectId?: string },
  page: PageRequest,
): Promise<Page<ApprovalPolicy>> {
  const query = policies(db, organizationId);
  if (filter.projectId) void query.where('project_id', filter.projectId);
  return keysetPage<Row, ApprovalPolicy>(query, ['name', 'id'], page, (r) => [r.name, r.id], rowToPolicy);
}

/** A project holds at most this many approval policies (checked on create), so a gate reads them all at once. */
export const MAX_APPROVAL_POLICIES_PER_PROJECT = 50;

/** Enabled approval policies of a project, oldest first. */
export async function enabledApprovalPoliciesOf(db: Queryable, organizationId: string, projectId: string) {
  const rows = (await policies(db, organizationId)
    .where({ project_id: projectId, enabled: true })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .limit(MAX_APPROVAL_POLICIES_PER_PROJECT)) as Row[];
  return rows.map(rowToPolicy);
}

export async function countApprovalPoliciesOf(db: Queryable, projectId: string): Promise<number> {
  const row = (await db('approval_policies').where('project_id', projectId).count('* as n').first()) as { n: string };
  return Number(row.n);
}

/** False when the policy is gone; a rename onto a sibling's name answers 409. */
export function updateApprovalPolicy(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: Partial<ApprovalPolicyInput>,
): Promise<boolean> {
  return updateUnique(
    db('approval_policies')
      .where({ organization_id: organizationId, id })
      .update({ ...columnsOf(changes), updated_at: db.fn.now() }),
    CONFLICT,
  );
}

export async function deleteApprovalPolicy(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await db('approval_policies').where({ organization_id: organizationId, id }).delete()) > 0;
}
