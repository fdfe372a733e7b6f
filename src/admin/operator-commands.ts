import type { AuditService } from '../audit/audit-service';
import type { AuditActor } from '../audit/types';
import { verifyChains, type ChainReport } from '../audit/verify-chain';
import type { Db } from '../db/knex';
import { InvalidInput, NotFound } from '../errors';
import { findUnauditedCommits, type UnauditedCommit } from '../gitops/unaudited-commits';
import { findLostCommits, type LostCommit } from '../gitops/lost-commits';
import type { RepositoryStore } from '../git/repository-store';
import { hashPassword } from '../identity/password-hash';
import type { PasswordPolicy } from '../identity/password-policy';
import { ORG_ROLES, isOrgRole } from '../iam/principal';
import {
  PLANS,
  SLUG_PATTERN,
  findOrganizationBySlug,
  insertMembership,
  insertOrganization,
  setOrganizationPlan,
  type Organization,
  type Plan,
} from '../orgs/org-repository';
import { requireDisplayName } from '../users/display-name';
import { canonicalEmail, emailLookupKey } from '../users/email-address';
import { findUserByEmail, insertUser, type User } from '../users/user-repository';

/** What an instance operator does before any user exists; every change is audited as a system action. */
export interface OperatorDeps {
  db: Db;
  audit: AuditService;
}

export interface UserCreationDeps extends OperatorDeps {
  /** The same password rules as registration (length, shipped and operator blocklists, not the email). */
  passwordPolicy: PasswordPolicy;
}

const OPERATOR = 'operator-cli';

function parsePlan(plan: string): Plan {
  if (!(PLANS as readonly string[]).includes(plan)) throw new InvalidInput(`plan must be one of ${PLANS.join(', ')}`);
  return plan as Plan;
}

export async function createUser(deps: UserCreationDeps, input: { email: string; password: string; name?: string }) {
  const email = canonicalEmail(input.email);
  const name = requireDisplayName('name', input.name ?? '');
  deps.passwordPolicy.check(input.password, email);
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (trx): Promise<User> => {
    const user = await insertUser(trx, { email, name, passwordHash, verified: true });
    await deps.audit.append(trx, {
      organizationId: null,
      userId: user.id,
      actorType: 'system',
      actor: OPERATOR,
      action: 'user.create',
      category: 'member_management',
      resourceType: 'user',
      resourceId: user.id,
      details: { email: user.email, verified: true },
    });
    return user;
  });
}

export async function createOrg(
  deps: OperatorDeps,
  input: { slug: string; name: string; owner: string; plan?: string },
) {
  if (!SLUG_PATTERN.test(input.slug)) throw new InvalidInput('slug must be lowercase letters, digits and dashes');
  requireDisplayName('name', input.name);
  const plan = parsePlan(input.plan ?? 'free');
  return deps.db.transaction(async (trx): Promise<Organization> => {
    const owner = await findUserByEmail(trx, emailLookupKey(input.owner));
    if (!owner) throw new NotFound(`no user with email ${input.owner}`);
    const org = await insertOrganization(trx, { slug: input.slug, name: input.name, plan });
    await insertMembership(trx, org.id, owner.id, 'owner');
    await deps.audit.append(trx, {
      organizationId: org.id,
      userId: owner.id,
      actorType: 'system',
      actor: OPERATOR,
      action: 'organization.create',
      category: 'configuration',
      resourceType: 'organization',
      resourceId: org.id,
      details: { slug: org.slug, plan, owner: owner.email },
    });
    return org;
  });
}

/** Who changes a plan: the operator CLI by default, an instance administrator through the API. */
const OPERATOR_ACTOR: AuditActor = { userId: null, actorType: 'system', actor: OPERATOR, requestId: null };

export async function setPlan(deps: OperatorDeps, input: { org: string; plan: string }, by = OPERATOR_ACTOR) {
  const plan = parsePlan(input.plan);
  return deps.db.transaction(async (trx) => {
    const org = await findOrganizationBySlug(trx, input.org);
    if (!org) throw new NotFound(`no organization with slug ${input.org}`);
    await setOrganizationPlan(trx, org.id, plan);
    await deps.audit.append(trx, {
      organizationId: org.id,
      ...by,
      action: 'organization.plan.change',
      category: 'configuration',
      resourceType: 'organization',
      resourceId: org.id,
      details: { from: org.plan, to: plan },
    });
    return { ...org, plan };
  });
}

/** Adds an existing user to an organization with a role, without an invitation (the operator vouches for them). */
export async function addMember(deps: OperatorDeps, input: { org: string; email: string; role: string }) {
  if (!isOrgRole(input.role)) throw new InvalidInput(`role must be one of ${ORG_ROLES.join(', ')}`);
  const role = input.role;
  return deps.db.transaction(async (trx) => {
    const org = await findOrganizationBySlug(trx, input.org);
    if (!org) throw new NotFound(`no organization with slug ${input.org}`);
    const user = await findUserByEmail(trx, emailLookupKey(input.email));
    if (!user) throw new NotFound(`no user with email ${input.email}`);
    await insertMembership(trx, org.id, user.id, role);
    await deps.audit.append(trx, {
      organizationId: org.id,
      ...OPERATOR_ACTOR,
      action: 'member.add',
      category: 'member_management',
      resourceType: 'member',
      resourceId: user.id,
      details: { email: user.email, role },
    });
    return { organization: { id: org.id, slug: org.slug }, userId: user.id, email: user.email, role };
  });
}

export interface AuditReport extends ChainReport {
  /** Commits on hosted repositories that no audit entry names. */
  unauditedCommits: UnauditedCommit[];
  /** Recorded or audited commits that their project's branch does not reach. */
  lostCommits: LostCommit[];
}

/**
 * The hash chains, every hosted repository's commits against the audit entries that name them, and every recorded
 * commit against its project's branch.
 */
export async function verifyAudit(deps: OperatorDeps & { repositories: RepositoryStore }): Promise<AuditReport> {
  const chains = await verifyChains(deps.db);
  const unauditedCommits = await findUnauditedCommits(deps.db, deps.repositories);
  const lostCommits = await findLostCommits(deps.db, deps.repositories);
  const ok = chains.ok && unauditedCommits.length === 0 && lostCommits.length === 0;
  return { ...chains, unauditedCommits, lostCommits, ok };
}
