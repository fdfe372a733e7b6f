import type { HttpAdapter } from './adapter';
import { JSON_HEADERS } from './adapter';

const THEME = { critical: 'D92D20', warning: 'F79009', info: '2E90FA' } as const;

/**
 * Enterprise chat cards (Teams-style incoming webhook connector), the connector's MessageCard format:
 * `summary` and `title` <- title, `themeColor` <- severity, one section: `activityTitle` <- event name,
 * `activitySubtitle` <- occurredAt, `facts` <- facts as {name, value}, `text` <- text; an `OpenUri` potential action
 * <- link (acknowledge) when present.
 */
export const chatCardsAdapter: HttpAdapter = {
  secretRequired: false,
  build(message, target) {
    const body = JSON.stringify({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: message.title,
      themeColor: THEME[message.severity],
      title: message.title,
      sections: [
        {
          activityTitle: message.event,
          activitySubtitle: message.occurredAt,
          facts: Object.entries(message.facts).map(([name, value]) => ({ name, value })),
          text: message.text,
          markdown: false,
        },
      ],
      ...(message.link
        ? {
            potentialAction: [
              { '@type': 'OpenUri', name: 'Acknowledge', targets: [{ os: 'default', uri: message.link }] },
            ],
          }
        : {}),
    });
    return { url: target.url, headers: { ...JSON_HEADERS }, body };
  },
};
