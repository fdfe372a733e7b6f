import type { Answer, Item, Schema } from '../../api/models';

/** The notification routes' answers (docs/notifications.md), as the served OpenAPI document describes them. */
export type InAppNotification = Item<'notification-list'>;
export type Preferences = Schema<'preference-list'>;
export type Channel = Schema<'channel'>;
export type DeliveryAttempt = Item<'delivery-list'>;
export type TestResult = Answer<'/api/v2/notifications/channels/{id}/test', 'post'>;
export type EscalationPolicy = Schema<'escalation-policy'>;
export type Incident = Schema<'incident'>;
