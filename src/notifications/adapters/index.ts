import type { HttpAdapter } from './adapter';
import { alertManagementAdapter } from './alert-management';
import { chatCardsAdapter } from './chat-cards';
import { chatWebhookAdapter } from './chat-webhook';
import { httpWebhookAdapter } from './http-webhook';
import { incidentPagingAdapter } from './incident-paging';
import { teamChatAdapter } from './team-chat';

/** Channel types sent over HTTP, by the `type` value stored and sent in requests. */
export const HTTP_ADAPTERS = {
  webhook: httpWebhookAdapter,
  chat: teamChatAdapter,
  chat2: chatWebhookAdapter,
  cards: chatCardsAdapter,
  paging: incidentPagingAdapter,
  alerts: alertManagementAdapter,
} as const satisfies Record<string, HttpAdapter>;

export type HttpChannelType = keyof typeof HTTP_ADAPTERS;
