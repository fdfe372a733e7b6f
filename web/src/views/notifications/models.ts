import type { RequestSchema } from '../../api/request-schemas';

/** Shapes of the notification routes' answers (docs/notifications.md). */

export interface InAppNotification {
  id: string;
  event: string;
  title: string;
  read: boolean;
  createdAt: string;
}

export interface Preferences {
  events: string[];
  channels: Record<string, string[]>;
  projectIds: string[] | null;
  digestIntervalMs: number | null;
}

export interface Channel {
  id: string;
  type: string;
  name: string;
  settings: Record<string, unknown>;
  hasSecret: boolean;
  events: string[];
  active: boolean;
  throttledUntil: string | null;
}

export interface DeliveryAttempt {
  id: string;
  event: string;
  recipient: string;
  attempt: number;
  status: string;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  timestamp: string;
}

export interface TestResult {
  results: (Pick<
    DeliveryAttempt,
    'recipient' | 'status' | 'responseStatus' | 'responseBody' | 'error' | 'durationMs'
  > & {
    attempts: number;
  })[];
}

export interface EscalationPolicy {
  id: string;
  name: string;
  triggerEvents: string[];
  tiers: RequestSchema<'escalation-policy-create'>['tiers'];
  timeoutMs: number;
}

export interface Incident {
  id: string;
  policyId: string;
  status: 'open' | 'acknowledged' | 'resolved';
  eventCount: number;
  acknowledgedBy: string | null;
  createdAt: string;
}
