import type { HttpAdapter } from './adapter';
import { JSON_HEADERS } from './adapter';

/**
 * Team-chat workspace (Slack-style). Two modes, both the service's Block Kit message:
 * - incoming webhook: POST to the webhook URL (the URL is the credential, kept sealed);
 * - bot token: POST to `chat.postMessage` with `Authorization: Bearer <token>` and `channel` from the settings.
 *
 * Field mapping: `text` <- title (the notification fallback), blocks: `header` <- title, `section.fields` <- facts as
 * `*key*\nvalue` mrkdwn, `context` <- event name and time, an `actions` button <- link (acknowledge) when present.
 */
export const teamChatAdapter: HttpAdapter = {
  defaultUrl: 'https://slack.com/api/chat.postMessage',
  secretRequired: false,
  build(message, target) {
    const blocks: unknown[] = [
      { type: 'header', text: { type: 'plain_text', text: message.title.slice(0, 150) } },
      {
        type: 'section',
        fields: Object.entries(message.facts)
          .slice(0, 10)
          .map(([key, value]) => ({ type: 'mrkdwn', text: `*${key}*\n${value}` })),
      },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `${message.event} · ${message.severity} · ${message.occurredAt}` }],
      },
    ];
    if (message.link) {
      blocks.push({
        type: 'actions',
        elements: [{ type: 'button', text: { type: 'plain_text', text: 'Acknowledge' }, url: message.link }],
      });
    }
    const bot = target.settings.mode === 'bot';
    const body = JSON.stringify({
      ...(bot ? { channel: target.settings.channel } : {}),
      text: message.title,
      blocks,
    });
    const headers: Record<string, string> = { ...JSON_HEADERS };
    if (bot && target.secret) headers.authorization = `Bearer ${target.secret}`;
    return { url: target.url, headers, body };
  },
};
