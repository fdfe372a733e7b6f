import type { Queryable } from '../db/knex';
import type { OrgRole } from '../iam/principal';
import { insertOne } from '../db/owned-rows';
import { keysetPage, type Page, type PageRequest } from '../db/pagination';
import type { InvitationStatus } from './invitation-workflow-contract';

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: OrgRole;
  /** As stored; a pending row past its expiry reads as `expired` (the timer may not have fired yet). */
  status: InvitationStatus;
  expiresAt: string;
  invitedBy: string | null;
  acceptedBy: string | null;
  reissueCount: number;
  workflowId: string;
  /** The invitation mail of the current token: `pending` until the workflow's mail activity has sent it. */
  mail: { status: 'pending' | 'sent' | 'failed'; sentAt: string | null; error: string | null };
  createdAt: string;
  updatedAt: string;
}

export interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  role: OrgRole;
  token_hash: string;
  status: InvitationStatus;
  expires_at: Date;
  invited_by: string | null;
  /** The service account token that sent it, if one did (its rights are checked again at accept). */
  invited_by_token_id: string | null;
  accepted_by: string | null;
  reissue_count: number;
  workflow_id: string;
  workflow_started_at: Date | null;
  mailed_token_hash: string | null;
  mail_sent_at: Date | null;
  mail_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export const INVITATION_COLUMNS = [
  'id',
  'organization_id',
  'email',
  'role',
  'token_hash',
  'status',
  'expires_at',
  'invited_by',
  'invited_by_token_id',
  'accepted_by',
  'reissue_count',
  'workflow_id',
  'workflow_started_at',
  'mailed_token_hash',
  'mail_sent_at',
  'mail_error',
  'created_at',
  'updated_at',
] as const;

/** The status a reader should see: the row, or `expired` once the deadline passed even if the timer is late. */
export function effectiveStatus(row: Pick<InvitationRow, 'status' | 'expires_at'>, now = new Date()): InvitationStatus {
  return row.status === 'pending' && row.expires_at.getTime() <= now.getTime() ? 'expired' : row.status;
}

export function rowToInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    organizationId: row.organization_id,
    email: row.email,
    role: row.role,
    status: effectiveStatus(row),
    expiresAt: row.expires_at.toISOString(),
    invitedBy: row.invited_by,
    acceptedBy: row.accepted_by,
    reissueCount: row.reissue_count,
    workflowId: row.workflow_id,
    mail: {
      status: row.mailed_token_hash === row.token_hash ? 'sent' : row.mail_error ? 'failed' : 'pending',
      sentAt: row.mail_sent_at?.toISOString() ?? null,
      error: row.mail_error,
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export interface NewInvitation {
  id: string;
  organizationId: string;
  email: string;
  role: OrgRole;
  tokenHash: string;
  expiresAt: Date;
  invitedBy: string | null;
  invitedByTokenId?: string | null;
  workflowId: string;
  /** The token sealed for its mail (the mail activity opens it, sends, and clears it). */
  sealedToken: string;
}

export function insertInvitation(db: Queryable, input: NewInvitation): Promise<InvitationRow> {
  return insertOne<InvitationRow>(
    db('invitations')
      .insert({
        id: input.id,
        organization_id: input.organizationId,
        email: input.email,
        role: input.role,
        token_hash: input.tokenHash,
        status: 'pending',
        expires_at: input.expiresAt,
        invited_by: input.invitedBy,
        invited_by_token_id: input.invitedByTokenId ?? null,
        workflow_id: input.workflowId,
        sealed_token: input.sealedToken,
      })
      .returning(INVITATION_COLUMNS),
    'a pending invitation for this email already exists',
  );
}

export async function findInvitation(db: Queryable, organizationId: string, id: string): Promise<InvitationRow | null> {
  const row = (await db('invitations').where({ organization_id: organizationId, id }).first(INVITATION_COLUMNS)) as
    InvitationRow | undefined;
  return row ?? null;
}

export async function findInvitationByTokenHash(db: Queryable, tokenHash: string): Promise<InvitationRow | null> {
  const row = (await db('invitations').where({ token_hash: tokenHash }).first(INVITATION_COLUMNS)) as
    InvitationRow | undefined;
  return row ?? null;
}

/** Locks the row for a transition; activities call this first so retries and concurrent changes serialise. */
export async function lockInvitation(db: Queryable, id: string): Promise<InvitationRow | null> {
  const row = (await db('invitations').where({ id }).forUpdate().first(INVITATION_COLUMNS)) as
    InvitationRow | undefined;
  return row ?? null;
}

/** The locked row with the sealed token awaiting its mail (null once mailed). */
export async function lockInvitationForMail(
  db: Queryable,
  id: string,
): Promise<(InvitationRow & { sealed_token: string | null }) | null> {
  const row = (await db('invitations')
    .where({ id })
    .forUpdate()
    .first([...INVITATION_COLUMNS, 'sealed_token'])) as (InvitationRow & { sealed_token: string | null }) | undefined;
  return row ?? null;
}

/** The mail of `tokenHash` went out: its sealed token is no longer needed. */
export async function recordInvitationMailed(db: Queryable, id: string, tokenHash: string): Promise<void> {
  await db('invitations')
    .where({ id })
    .update({ sealed_token: null, mailed_token_hash: tokenHash, mail_sent_at: db.fn.now(), mail_error: null });
}

export async function markWorkflowStarted(db: Queryable, id: string): Promise<void> {
  await db('invitations').where({ id }).whereNull('workflow_started_at').update({ workflow_started_at: db.fn.now() });
}

/** Pending rows whose workflow start was never confirmed (the process died between commit and start). */
export async function listUnstartedInvitations(
  db: Queryable,
  olderThan: Date,
  limit: number,
): Promise<InvitationRow[]> {
  return (await db('invitations')
    .whereNull('workflow_started_at')
    .where({ status: 'pending' })
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)
    .select(INVITATION_COLUMNS)) as InvitationRow[];
}

export async function pendingWorkflowIds(db: Queryable, organizationId: string): Promise<string[]> {
  return (await db('invitations')
    .where({ organization_id: organizationId, status: 'pending' })
    .pluck('workflow_id')) as string[];
}

/** How many invitations of the organization are still open (pending and unexpired). */
export async function countPendingInvitations(db: Queryable, organizationId: string): Promise<number> {
  const row = (await db('invitations')
    .where({ organization_id: organizationId, status: 'pending' })
    .where('expires_at', '>', db.fn.now())
    .count<{ n: string }>('* as n')
    .first()) as { n: string } | undefined;
  return Number(row?.n ?? 0);
}

export async function listPendingSentBy(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<InvitationRow[]> {
  return (await db('invitations')
    .where({ organization_id: organizationId, invited_by: userId, status: 'pending' })
    .select(INVITATION_COLUMNS)) as InvitationRow[];
}

export async function findPendingByEmail(
  db: Queryable,
  organizationId: string,
  email: string,
): Promise<InvitationRow | null> {
  const row = (await db('invitations')
    .where({ organization_id: organizationId, status: 'pending' })
    .whereRaw('lower(email) = lower(?)', [email])
    .first(INVITATION_COLUMNS)) as InvitationRow | undefined;
  return row ?? null;
}

export async function updateInvitation(
  db: Queryable,
  id: string,
  changes: Partial<
    Pick<InvitationRow, 'status' | 'token_hash' | 'expires_at' | 'accepted_by' | 'reissue_count' | 'mail_error'> & {
      sealed_token: string | null;
    }
  >,
): Promise<void> {
  await db('invitations')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() });
}

export function listInvitations(
  db: Queryable,
  organizationId: string,
  status: InvitationStatus | undefined,
  page: PageRequest,
): Promise<Page<Invitation>> {
  const query = db('invitations').where({ organization_id: organizationId }).select(INVITATION_COLUMNS);
  if (status === 'pending') void query.where({ status }).where('expires_at', '>', db.fn.now());
  else if (status === 'expired') {
    void query.where((b) => {
      void b
        .where({ status: 'expired' })
        .orWhere((p) => void p.where({ status: 'pending' }).where('expires_at', '<=', db.fn.now()));
    });
  } else if (status) void query.where({ status });
  return keysetPage<InvitationRow, Invitation>(query, ['email', 'id'], page, (r) => [r.email, r.id], rowToInvitation);
}
