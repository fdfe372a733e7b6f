import pg from 'pg';
import type { Logger } from '../logging/logger';

/**
 * PostgreSQL notifications (LISTEN/NOTIFY) for a whole process, on one connection of its own: each subscriber names a
 * channel and hears every payload sent on it after its transaction committed. The connection is opened with the first
 * subscription and opened again a second after it is lost; while it is down notifications are missed, so subscribers
 * are told (`onState(false)`) and must not rely on them until `onState(true)`.
 */
export interface PgNotifications {
  /** Hears `channel`; returns the way to stop. */
  subscribe(channel: string, onNotify: (payload: string) => void, onState?: (listening: boolean) => void): () => void;
  close(): Promise<void>;
}

interface Subscriber {
  onNotify: (payload: string) => void;
  onState?: (listening: boolean) => void;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const RECONNECT_MS = 1000;

export function createPgNotifications(opts: { databaseUrl: string; log: Logger }): PgNotifications {
  const channels = new Map<string, Set<Subscriber>>();
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;

  const everyone = () => [...channels.values()].flatMap((subs) => [...subs]);

  async function connect(): Promise<void> {
    if (closed || client || channels.size === 0) return;
    const next = new pg.Client({ connectionString: opts.databaseUrl, application_name: 'delivery-platform-notify' });
    const lost = () => {
      if (client !== next) return;
      client = null;
      if (listening) for (const sub of everyone()) sub.onState?.(false);
      listening = false;
      void next.end().catch(() => undefined);
      if (!closed) setTimeout(() => void connect(), RECONNECT_MS).unref();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (n) => {
      for (const sub of channels.get(n.channel) ?? []) sub.onNotify(n.payload ?? '');
    });
    client = next;
    try {
      await next.connect();
      for (const channel of channels.keys()) await next.query(`LISTEN ${channel}`);
      if (client !== next) return;
      listening = true;
      for (const sub of everyone()) sub.onState?.(true);
    } catch (err) {
      opts.log.warn('PostgreSQL notifications: LISTEN failed; trying again', { error: String(err) });
      lost();
    }
  }

  return {
    subscribe(channel, onNotify, onState) {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
      const sub: Subscriber = { onNotify, ...(onState ? { onState } : {}) };
      const subs = channels.get(channel) ?? new Set<Subscriber>();
      const fresh = subs.size === 0;
      subs.add(sub);
      channels.set(channel, subs);
      if (!client) void connect();
      else if (fresh && listening) {
        // A new channel on the open connection: heard from once its LISTEN is done.
        const current = client;
        current.query(`LISTEN ${channel}`).then(
          () => client === current && subs.has(sub) && onState?.(true),
          () => undefined,
        );
      } else if (listening) onState?.(true);
      return () => {
        subs.delete(sub);
        if (subs.size === 0) channels.delete(channel);
      };
    },
    async close() {
      closed = true;
      const last = client;
      client = null;
      listening = false;
      channels.clear();
      await last?.end().catch(() => undefined);
    },
  };
}
