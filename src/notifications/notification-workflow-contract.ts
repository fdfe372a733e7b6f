/**
 * The notification workflows: one outbox dispatcher per organization (`notification-dispatch-<orgId>`), reading the
 * domain-event outbox in seq order and fanning deliveries out per channel. Imported by workflow code, so it stays
 * free of Node built-ins and I/O.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AuditActor } from '../audit/types';
import type { NotificationMessage } from './message';
import { workflowType } from '../temporal/workflow-type';

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

/**
 * One send the plan asks for: a message to one channel and recipient, within its own time budget; or, with
 * `personal`, a member's own email routed by their preferences (`channelId` is then `user:<id>`, its chain).
 */
export interface PlannedDelivery {
  channelId: string;
  personal?: { userId: string; email: string };
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

/** One escalation incident (`escalation-incident-<id>`): tiers, timers, repeats and business hours. */
export function incidentWorkflowId(incidentId: string): string {
  return `escalation-incident-${incidentId}`;
}

export interface EscalationTarget {
  kind: 'channel' | 'user' | 'team';
  id: string;
}

export interface EscalationTier {
  targets: EscalationTarget[];
}

export interface BusinessHoursRule {
  timeZone: string;
  /** ISO weekdays, 1 Monday ... 7 Sunday. */
  days: number[];
  start: string;
  end: string;
  /** Outside business hours: wait for the next opening, or notify the after-hours tier instead. */
  outside: 'wait' | 'after_hours_tier';
  afterHoursTier?: EscalationTier;
}

/** The policy as it was when the incident opened (a later edit does not change a running incident). */
export interface EscalationSnapshot {
  policyId: string;
  name: string;
  tiers: EscalationTier[];
  timeoutMs: number;
  /** Whole-cycle repeats after the last tier's timeout, while unacknowledged. */
  repeatCount: number;
  repeatIntervalMs: number;
  businessHours: BusinessHoursRule | null;
}

export interface IncidentInput {
  incidentId: string;
  organizationId: string;
  policy: EscalationSnapshot;
  message: NotificationMessage;
  /** Set when a long escalation continued as new: the cycle it goes on with, its status and latest steps. */
  resume?: { cycle: number; status: IncidentStatus; steps: IncidentState['steps'] };
}

/** The notification steps an incident keeps (the latest ones; older ones are in the audit log). */
export const INCIDENT_STEPS_KEPT = 100;

export type IncidentStatus = 'open' | 'acknowledged' | 'resolved';

export interface IncidentState {
  status: IncidentStatus;
  /** The latest INCIDENT_STEPS_KEPT notification steps: tier index (-1 for the after-hours tier) and cycle. */
  steps: { tier: number; cycle: number; at: string }[];
}

export interface IncidentActionRequest {
  actor: AuditActor;
  /** `link` when the signed single-use link was used; `event` when a resolving event closed it (RESOLVING_EVENTS). */
  via: 'api' | 'link' | 'event';
}

export const acknowledgeIncidentUpdate = defineUpdate<IncidentState, [IncidentActionRequest]>('acknowledgeIncident');
export const resolveIncidentUpdate = defineUpdate<IncidentState, [IncidentActionRequest]>('resolveIncident');
export const incidentStateQuery = defineQuery<IncidentState>('incidentState');

/** ApplicationFailure types of rejected incident updates (the API maps them to 409). */
export const INCIDENT_FAILURE = { notOpen: 'IncidentNotOpen', resolved: 'IncidentResolved' } as const;

/** One member's digest (`notification-digest-<orgId>-<userId>`): gathers items, mails one summary per interval. */
export function digestWorkflowId(organizationId: string, userId: string): string {
  return `notification-digest-${organizationId}-${userId}`;
}

export interface DigestItem {
  eventId: string;
  event: string;
  title: string;
  occurredAt: string;
  projectId: string | null;
  /** The member's interval when the item was routed; the latest one sets the next window. */
  intervalMs: number;
  /** The personal channels the member's preferences route this event to; absent (older items): email only. */
  channels?: DigestChannel[];
}

/** Personal channels a digest summarises into (one summary per channel per window). */
export type DigestChannel = 'email' | 'in_app';

export function digestChannelsOf(item: DigestItem): DigestChannel[] {
  return item.channels ?? ['email'];
}

export interface DigestInput {
  organizationId: string;
  userId: string;
  /** Items carried over continue-as-new. */
  pending?: DigestItem[];
  /** Summaries per run before continue-as-new bounds the history. */
  sendsPerRun: number;
  /** Carried over continue-as-new in the middle of a window: when it closes (epoch ms). */
  windowEndsAt?: number;
  /** Carried over continue-as-new: items of the open window beyond DIGEST_ITEM_CAP (counted, not kept). */
  omitted?: number;
}

/** The most items one digest window keeps; more are counted and the summary says how many more there were. */
export const DIGEST_ITEM_CAP = 200;

export const digestItemSignal = defineSignal<[DigestItem]>('digestItem');

/** The dispatcher of an organization's notifications (workflows/notification-dispatch.ts) by its registered type. */
export const notificationDispatchWorkflowType =
  workflowType<(input: DispatcherInput) => Promise<void>>()('notificationDispatchWorkflow');
/** An escalation incident (workflows/escalation-incident.ts) by its registered type. */
export const escalationIncidentWorkflowType =
  workflowType<(input: IncidentInput) => Promise<IncidentState>>()('escalationIncidentWorkflow');
/** A recipient's digest (workflows/notification-digest.ts) by its registered type. */
export const notificationDigestWorkflowType =
  workflowType<(input: DigestInput) => Promise<void>>()('notificationDigestWorkflow');
