import type { Context, DefaultState, ParameterizedContext } from 'koa';
import type { Logger } from '../src/logging/logger';
import type { Principal } from '../src/iam/principal';

export interface AppState extends DefaultState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  /** Raw request bytes, kept for signature checks (webhooks) before any JSON parse. */
  rawBody?: Buffer;
  body?: unknown;
}

export type AppContext = ParameterizedContext<AppState, Context>;
