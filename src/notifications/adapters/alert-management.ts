import type { HttpAdapter } from './adapter';
import { JSON_HEADERS } from './adapter';

const PRIORITY = { critical: 'P1', warning: 'P3', info: 'P5' } as const;

/**
 * Alert-management service (Opsgenie-style Alert API), the API key as the channel secret, sent as
 * `Authorization: GenieKey <key>`.
 * Create (POST <url>): `message` <- title (130 max), `alias` <- dedupKey (the service deduplicates open alerts on
 * it), `description` <- text, `priority` <- severity (P1/P3/P5), `tags` <- [event, category], `details` <- facts,
 * `source` <- "delivery-platform", `entity` <- project id.
 * Close (POST <url>/<alias>/close?identifierType=alias): `source`, `note`.
 */
export const alertManagementAdapter: HttpAdapter = {
  defaultUrl: 'https://api.opsgenie.com/v2/alerts',
  secretRequired: true,
  build(message, target) {
    const headers = { ...JSON_HEADERS, authorization: `GenieKey ${target.secret ?? ''}` };
    if (message.action === 'resolve') {
      const url = `${target.url.replace(/\/$/, '')}/${encodeURIComponent(message.dedupKey)}/close?identifierType=alias`;
      return { url, headers, body: JSON.stringify({ source: 'delivery-platform', note: message.title }) };
    }
    const body = JSON.stringify({
      message: message.title.slice(0, 130),
      alias: message.dedupKey.slice(0, 512),
      description: message.text.slice(0, 15000),
      priority: PRIORITY[message.severity],
      tags: [message.event, message.category],
      details: message.facts,
      source: 'delivery-platform',
      ...(message.projectId ? { entity: message.projectId } : {}),
    });
    return { url: target.url, headers, body };
  },
};
