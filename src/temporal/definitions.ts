/**
 * Shared by API, workers and workflows: task queues, search attribute keys and message definitions.
 * Imported by workflow code, so it must stay free of Node built-ins and I/O.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { defineQuery, defineUpdate } from '@temporalio/workflow';

export const TASK_QUEUES = {
  platform: 'platform',
  git: 'git',
} as const;

export type TaskQueueName = keyof typeof TASK_QUEUES;

export function taskQueue(prefix: string, name: TaskQueueName): string {
  return `${prefix}${TASK_QUEUES[name]}`;
}

export const SEARCH_ATTRIBUTES = {
  organizationId: defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD),
  projectId: defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD),
  tenantId: defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD),
  environment: defineSearchAttributeKey('Environment', SearchAttributeType.KEYWORD),
  releaseId: defineSearchAttributeKey('ReleaseId', SearchAttributeType.KEYWORD),
  resourceStatus: defineSearchAttributeKey('ResourceStatus', SearchAttributeType.KEYWORD),
} as const;

/** `--search-attribute` values for `temporal server start-dev` and the operator API. */
export const SEARCH_ATTRIBUTE_DECLARATIONS: ReadonlyArray<{ name: string; type: 'Keyword' }> = Object.values(
  SEARCH_ATTRIBUTES,
).map((key) => ({ name: key.name, type: 'Keyword' as const }));

export const WORKFLOW_ID_PREFIX = {
  proof: 'proof',
  invitation: 'invitation',
} as const;

export interface ProofInput {
  runId: string;
  organizationId: string | null;
  steps: number;
  stepDelayMs: number;
}

export interface ProofResult {
  runId: string;
  stepsCompleted: number;
  auditEntryId: string;
}

export const proofProgressQuery = defineQuery<number>('proofProgress');

// Invitations (workflows/invitation.ts): one workflow `invitation-<id>` per invitation, human actions as Updates.
export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationWorkflowInput {
  invitationId: string;
  organizationId: string;
  /** Compared with the accepting user's email by the accept validator. */
  email: string;
  /** SHA-256 of the current token (never the token itself: history is storage too). */
  tokenHash: string;
  /** ISO instant of the current expiry; reissue moves it by `ttlMs` from the reissue. */
  expiresAt: string;
  ttlMs: number;
}

/** Who asked, carried into the audit entries the activities write. */
export interface InvitationActor {
  userId: string | null;
  actorType: 'user' | 'service_account' | 'system';
  actor: string;
  requestId: string | null;
}

export interface ReissueInvitationRequest {
  tokenHash: string;
  actor: InvitationActor;
}
export interface AcceptInvitationRequest {
  tokenHash: string;
  userId: string;
  email: string;
  actor: InvitationActor;
}
export interface AcceptInvitationResult {
  organizationId: string;
  userId: string;
  role: string;
}
export interface InvitationState {
  status: InvitationStatus;
  expiresAt: string;
  reissues: number;
}

export const reissueInvitationUpdate = defineUpdate<{ expiresAt: string }, [ReissueInvitationRequest]>(
  'reissueInvitation',
);
export const revokeInvitationUpdate = defineUpdate<{ status: InvitationStatus }, [{ actor: InvitationActor }]>(
  'revokeInvitation',
);
export const acceptInvitationUpdate = defineUpdate<AcceptInvitationResult, [AcceptInvitationRequest]>(
  'acceptInvitation',
);
export const invitationStateQuery = defineQuery<InvitationState>('invitationState');

/** ApplicationFailure types of rejected invitation updates; the API maps each to one HTTP answer. */
export const INVITATION_FAILURE = {
  notPending: 'InvitationNotPending',
  emailMismatch: 'InvitationEmailMismatch',
  tokenSuperseded: 'InvitationTokenSuperseded',
  alreadyMember: 'InvitationAlreadyMember',
} as const;
