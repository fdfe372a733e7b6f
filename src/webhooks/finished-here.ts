import type { Tx } from '../db/knex';
import type { WebhookRequestRow } from './webhook-request-repository';

type Listener = (rows: WebhookRequestRow[]) => void;
const listeners = new Set<Listener>();

/**
 * Word of request rows finished in this process, as they were finished, once the transaction that finished them has
 * committed (issue 46): the requests waiting here are answered from it, without the read that a notification from
 * another process needs (request-outcome-watcher.ts). A transaction that rolls back announces nothing.
 */
export function announceFinished(trx: Tx, rows: WebhookRequestRow[]): void {
  if (rows.length === 0) return;
  trx.executionPromise.then(
    () => listeners.forEach((hear) => hear(rows)),
    () => undefined,
  );
}

/** Hears `announceFinished` until the returned function is called. */
export function hearFinished(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
