import { randomBytes } from 'node:crypto';
import { createOrg, createUser, type UserCreationDeps } from '../../src/admin/operator-commands';
import type { OrgRole } from '../../src/iam/principal';
import { insertMembership, type Organization } from '../../src/orgs/org-repository';
import type { User } from '../../src/users/user-repository';
import type { TestPlatform } from './test-platform';

export interface Member {
  user: User;
  token: string;
  password: string;
}

export function uniqueSlug(prefix = 'org'): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

/** What the operator CLI's commands get, from a running test platform. */
export function operatorDeps(platform: TestPlatform): UserCreationDeps {
  const { db, audit, identity } = platform.services;
  return { db, audit, passwordPolicy: identity.passwordPolicy };
}

export async function makeUser(platform: TestPlatform, email?: string): Promise<{ user: User; password: string }> {
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const user = await createUser(operatorDeps(platform), {
    email: email ?? `${randomBytes(4).toString('hex')}@example.test`,
    password,
    name: 'Test User',
  });
  return { user, password };
}

/** A signed access token exactly as login would issue it, for tests of routes other than login itself. */
export async function tokenFor(platform: TestPlatform, user: User, org: Organization | null, role: OrgRole | null) {
  const { token } = await platform.services.accessTokens.sign({
    userId: user.id,
    email: user.email,
    organizationId: org?.id ?? null,
    role: org ? role : null,
  });
  return token;
}

/** An organization with an owner, plus members of the other roles on request. */
export async function makeOrg(platform: TestPlatform, roles: OrgRole[] = ['owner'], plan = 'free') {
  const owner = await makeUser(platform);
  const org = await createOrg(operatorDeps(platform), {
    slug: uniqueSlug(),
    name: 'Test Org',
    owner: owner.user.email,
    plan,
  });
  const members: Partial<Record<OrgRole, Member>> = {
    owner: { ...owner, token: await tokenFor(platform, owner.user, org, 'owner') },
  };
  for (const role of roles) {
    if (role === 'owner') continue;
    const m = await makeUser(platform);
    await insertMembership(platform.services.db, org.id, m.user.id, role);
    members[role] = { ...m, token: await tokenFor(platform, m.user, org, role) };
  }
  return { org, members };
}

/** A user who operates the instance (users.is_instance_admin), with a token without organization. */
export async function makeInstanceAdmin(platform: TestPlatform): Promise<Member> {
  const admin = await makeUser(platform);
  await platform.services.db('users').where({ id: admin.user.id }).update({ is_instance_admin: true });
  return { ...admin, token: await tokenFor(platform, admin.user, null, null) };
}

/** Adds an existing user to an organization with a role and returns their token for it. */
export async function addMember(platform: TestPlatform, org: Organization, user: User, role: OrgRole) {
  await insertMembership(platform.services.db, org.id, user.id, role);
  return tokenFor(platform, user, org, role);
}
