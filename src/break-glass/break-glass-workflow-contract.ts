/**
 * The break-glass workflow (workflows/break-glass.ts): one workflow `break-glass-<id>` per session; it opens the
 * session, closes it when its duration ends (a durable timer) or when someone closes it by hand (an Update).
 * Imported by workflow code, so it stays free of Node built-ins and I/O.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { AuditActor } from '../audit/types';
import { workflowType } from '../temporal/workflow-type';

export function breakGlassWorkflowId(sessionId: string): string {
  return `break-glass-${sessionId}`;
}

export interface BreakGlassScope {
  /** Project ids; empty = every project of the organization. */
  projectIds: string[];
  /** Environment names; empty = every environment. */
  environments: string[];
}

export interface BreakGlassWorkflowInput {
  sessionId: string;
  organizationId: string;
  userId: string;
  actor: AuditActor;
  justification: string;
  durationMinutes: number;
  /** How long the session stays open (durationMinutes in production; tests pass seconds). */
  durationMs: number;
  scope: BreakGlassScope;
}

export interface BreakGlassOpened {
  sessionId: string;
  openedAt: string;
  endsAt: string;
}

export type BreakGlassStatus = 'opening' | 'open' | 'closed';

export interface BreakGlassState {
  status: BreakGlassStatus;
  endsAt: string | null;
}

export interface CloseBreakGlassRequest {
  actor: AuditActor;
}

/** Waits until the session's row is written and returns it (what the opening API call answers). */
export const breakGlassOpenedUpdate = defineUpdate<BreakGlassOpened, []>('breakGlassOpened');
export const closeBreakGlassUpdate = defineUpdate<
  { status: BreakGlassStatus; closedAt: string },
  [CloseBreakGlassRequest]
>('closeBreakGlass');
export const breakGlassStateQuery = defineQuery<BreakGlassState>('breakGlassState');

export const BREAK_GLASS_FAILURE = {
  closed: 'BreakGlassClosed',
} as const;

/** The break-glass workflow (workflows/break-glass.ts) by its registered type. */
export const breakGlassWorkflowType =
  workflowType<(input: BreakGlassWorkflowInput) => Promise<{ status: BreakGlassStatus }>>()('breakGlassWorkflow');
