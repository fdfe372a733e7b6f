import type { AuditActor } from '../audit/types';

/** The sync and health statuses of an Argo CD Application, as the controller webhook accepts them. */
export const SYNC_STATUSES = ['Synced', 'OutOfSync', 'Unknown', 'Error'] as const;
export const HEALTH_STATUSES = ['Healthy', 'Progressing', 'Degraded', 'Suspended', 'Missing', 'Unknown'] as const;

/**
 * The controller's word on a commit a release or promotion waits for (its workflow's Update, the verdict of the
 * reports recorded so far: sync-verdict.ts). Imported by workflow code, so it stays free of Node built-ins and I/O.
 */
export interface SyncReport {
  /** The commit the controller synced: must be the workflow's commit. */
  revision: string;
  syncStatus: (typeof SYNC_STATUSES)[number];
  healthStatus: (typeof HEALTH_STATUSES)[number];
  message?: string;
  actor: AuditActor;
}
