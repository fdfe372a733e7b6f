import type { HttpAdapter } from './adapter';
import { JSON_HEADERS } from './adapter';

const COLOURS = { critical: 0xd92d20, warning: 0xf79009, info: 0x2e90fa } as const;

/**
 * Second chat service (Discord-style webhook URL; the URL carries its token and is kept sealed). Execute-webhook
 * body: `content` <- title, one embed: `title` <- title, `description` <- text, `color` <- severity,
 * `fields` <- facts (inline), `timestamp` <- occurredAt, `url` <- link, `footer.text` <- event name.
 * `allowed_mentions.parse = []`: event data never pings anyone.
 */
export const chatWebhookAdapter: HttpAdapter = {
  secretRequired: false,
  build(message, target) {
    const body = JSON.stringify({
      username: 'Delivery Platform',
      content: message.title.slice(0, 2000),
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: message.title.slice(0, 256),
          description: message.text.slice(0, 4096),
          color: COLOURS[message.severity],
          fields: Object.entries(message.facts).map(([name, value]) => ({ name, value, inline: true })),
          timestamp: message.occurredAt,
          footer: { text: message.event },
          ...(message.link ? { url: message.link } : {}),
        },
      ],
    });
    return { url: target.url, headers: { ...JSON_HEADERS }, body };
  },
};
