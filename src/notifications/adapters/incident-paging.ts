import type { HttpAdapter } from './adapter';
import { JSON_HEADERS } from './adapter';

/**
 * Incident-paging service (PagerDuty-style Events API v2), the integration (routing) key as the channel secret.
 * Trigger: `routing_key` <- secret, `event_action: "trigger"`, `dedup_key` <- dedupKey (the escalation incident or
 * the event), `payload.summary` <- title (1024 max), `payload.source` <- "delivery-platform", `payload.severity` <-
 * severity, `payload.timestamp` <- occurredAt, `payload.component` <- project id, `payload.group` <- category,
 * `payload.class` <- event name, `payload.custom_details` <- event data, `links` <- link.
 * Resolve: `routing_key`, `event_action: "resolve"`, `dedup_key` only, as the API wants.
 */
export const incidentPagingAdapter: HttpAdapter = {
  defaultUrl: 'https://events.pagerduty.com/v2/enqueue',
  secretRequired: true,
  build(message, target) {
    const routingKey = target.secret ?? '';
    const body =
      message.action === 'resolve'
        ? { routing_key: routingKey, event_action: 'resolve', dedup_key: message.dedupKey }
        : {
            routing_key: routingKey,
            event_action: 'trigger',
            dedup_key: message.dedupKey,
            payload: {
              summary: message.title.slice(0, 1024),
              source: 'delivery-platform',
              severity: message.severity,
              timestamp: message.occurredAt,
              component: message.projectId ?? undefined,
              group: message.category,
              class: message.event,
              custom_details: message.data,
            },
            ...(message.link ? { links: [{ href: message.link, text: 'Acknowledge' }] } : {}),
          };
    return { url: target.url, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  },
};
