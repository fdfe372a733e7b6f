import { PLANS, type Plan } from '../orgs/org-repository';

export const PLAN_RANK: Readonly<Record<Plan, number>> = { free: 0, pro: 1, enterprise: 2 };

export const PLAN_LABELS: Readonly<Record<Plan, string>> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

/**
 * The lowest plan of each gated capability, as the spec's tier tables give them ("What the service does" item 8,
 * notification channel tiers, "Limits"). Later issues gate their routes with `PlanGate.require`.
 */
export const FEATURE_PLANS = {
  api_keys: 'free',
  in_app_notifications: 'free',
  email_channel: 'free',
  webhook_channel: 'free',
  chat_channels: 'pro',
  paging_channels: 'pro',
  escalation_policies: 'pro',
  service_accounts: 'enterprise',
  crd_upload: 'enterprise',
} as const satisfies Record<string, Plan>;

export type Feature = keyof typeof FEATURE_PLANS;

/** Plural nouns for the 403 message: "<label> require the <Plan> plan". */
export const FEATURE_LABELS: Readonly<Record<Feature, string>> = {
  api_keys: 'Project API keys',
  in_app_notifications: 'In-app notifications',
  email_channel: 'Email notification channels',
  webhook_channel: 'HTTP webhook channels',
  chat_channels: 'Team-chat notification channels',
  paging_channels: 'Incident-paging and alert-management channels',
  escalation_policies: 'Escalation policies',
  service_accounts: 'Service accounts',
  crd_upload: 'Custom resource definitions',
};

export function planIncludes(plan: Plan, feature: Feature): boolean {
  return PLAN_RANK[plan] >= PLAN_RANK[FEATURE_PLANS[feature]];
}

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}
