import type { ActorType } from '../audit/types';

export const ORG_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Higher rank means more power; used for "at least role X" checks. */
export const ROLE_RANK: Record<OrgRole, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };

export function isOrgRole(value: unknown): value is OrgRole {
  return typeof value === 'string' && (ORG_ROLES as readonly string[]).includes(value);
}

/** The verified caller of a request, whatever credential it presented. */
export interface Principal {
  kind: 'user' | 'service_account' | 'api_key';
  actorType: ActorType;
  /** Readable actor for audit entries: email, service account name or key name. */
  actor: string;
  userId: string | null;
  email: string | null;
  /** Active organization, from the verified credential only (never a header or body). */
  organizationId: string | null;
  role: OrgRole | null;
  /** Identifier of the credential (JWT jti, token id, key id). */
  credentialId: string;
  /** The login session a user access token belongs to (`sid`), for "this session" operations. */
  sessionId?: string;
  isInstanceAdmin: boolean;
  /** Machine credentials (project API keys, service account tokens) narrow what role and grants would allow. */
  restriction?: CredentialRestriction;
  /** The acting service account: resource grants to it apply (src/permissions). */
  serviceAccountId?: string;
}

export interface CredentialRestriction {
  /** Glob patterns over dotted actions (src/iam/action-glob.ts); an action matching none is refused. */
  allowedActions: readonly string[];
  /** The strongest role the credential's scopes stand for: role and grants are capped by it. */
  roleCap: OrgRole;
  scopes: readonly string[];
}
