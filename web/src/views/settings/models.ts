import type { RequestSchema } from '../../api/request-schemas';

/** Shapes of the organization settings routes' answers (docs/authorization.md, docs/machine-access.md). */

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: string;
  joinedAt: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string;
  reissueCount: number;
  mail: { status: string };
}

export interface Team {
  id: string;
  slug: string;
  name: string;
  description: string;
  memberCount: number;
}

export interface Grant {
  id: string;
  subjectType: string;
  subjectId: string;
  resourceType: string;
  resourceId: string;
  role: string;
}

export interface EffectivePermissions {
  subject: { actor: string };
  organizationRole: string | null;
  teams: { id: string; slug: string; name: string }[];
  grants: (Grant & { via: string })[];
  allowedActions: string[];
}

export interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface ServiceAccount {
  id: string;
  name: string;
  description: string;
  role: string;
}

export interface AccountToken {
  id: string;
  description: string;
  scopes: string[];
  allowedActions: string[];
  expiresAt: string;
  lastUsedAt: string | null;
}

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
/** An organization role as the invitation and member-role requests take it. */
export type Role = RequestSchema<'invitation-create'>['role'];
