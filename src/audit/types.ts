export const ACTOR_TYPES = ['user', 'service_account', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export const AUDIT_STATUSES = ['success', 'failure', 'blocked'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/** Organizational categories of the spec. */
export const ORG_CATEGORIES = [
  'deployment',
  'configuration',
  'delivery',
  'cluster',
  'git',
  'promotion',
  'webhook',
] as const;
/** IAM categories of the spec. */
export const IAM_CATEGORIES = [
  'member_management',
  'service_accounts',
  'api_keys',
  'break_glass',
  'role_changes',
  'authentication',
] as const;
export const AUDIT_CATEGORIES = [...ORG_CATEGORIES, ...IAM_CATEGORIES, 'system'] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

/** Who acted, as every audit entry records it: the one actor shape services, activities and workflows carry. */
export interface AuditActor {
  userId: string | null;
  actorType: ActorType;
  /** Human-readable actor: an email, a service account name, or the originating subsystem for system actions. */
  actor: string;
  requestId: string | null;
}

export interface AuditEntryInput {
  organizationId: string | null;
  projectId?: string | null;
  tenantId?: string | null;
  userId?: string | null;
  actorType: ActorType;
  /** Human-readable actor: an email, a service account name, or the originating subsystem for system actions. */
  actor?: string;
  action: string;
  category: AuditCategory;
  resourceType?: string | null;
  resourceId?: string | null;
  status?: AuditStatus;
  details?: Record<string, unknown>;
  gitCommitSha?: string | null;
  workflowId?: string | null;
  requestId?: string | null;
}

export interface AuditEntry {
  id: string;
  organizationId: string | null;
  projectId: string | null;
  tenantId: string | null;
  userId: string | null;
  actorType: ActorType;
  actor: string;
  action: string;
  category: AuditCategory;
  resourceType: string | null;
  resourceId: string | null;
  status: AuditStatus;
  details: Record<string, unknown>;
  gitCommitSha: string | null;
  workflowId: string | null;
  requestId: string | null;
  createdAt: string;
}

export interface AuditQuery {
  organizationId: string;
  from?: Date;
  to?: Date;
  action?: string;
  categories?: readonly AuditCategory[];
  actor?: string;
  actorType?: ActorType;
  resourceType?: string;
  resourceId?: string;
  projectId?: string;
  status?: AuditStatus;
  /** Entries about one break-glass session or made under it (their details carry its id). */
  breakGlassSessionId?: string;
  cursor?: string;
  limit: number;
}
