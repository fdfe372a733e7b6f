/**
 * The notification workflows: one outbox dispatcher per organization (`notification-dispatch-<orgId>`), reading the
 * domain-event outbox in seq order and fanning deliveries out per channel. Imported by workflow code, so it stays
 * free of Node built-ins and I/O.
 */
import type { NotificationMessage } from './message';

export function dispatcherWorkflowId(organizationId: string): string {
  return `notification-dispatch-${organizationId}`;
}

export interface DispatcherInput {
  organizationId: string;
  /** How long to wait before reading the outbox again when it had nothing new (NOTIFY_POLL_INTERVAL). */
  pollIntervalMs: number;
  batchSize: number;
  /** Turns of one run before continue-as-new bounds its history. */
  turnsPerRun: number;
  /** The cursor carried over continue-as-new; absent on a fresh start (the activity reads the stored one). */
  afterSeq?: number;
}

/** One send the plan asks for: a message to one channel and recipient, within its own time budget. */
export interface PlannedDelivery {
  channelId: string;
  recipient: string;
  eventId: string;
  message: NotificationMessage;
  /** Covers every attempt the channel opted into, with their backoffs. */
  timeoutMs: number;
}

export interface DispatchPlan {
  /** The seq of the last outbox record read (and stored as the cursor), or the previous cursor when none. */
  lastSeq: number;
  events: number;
  deliveries: PlannedDelivery[];
}

export type DeliveryOutcome = 'sent' | 'failed' | 'duplicate' | 'skipped';
