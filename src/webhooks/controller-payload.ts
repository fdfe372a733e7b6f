import { InvalidInput } from '../errors';
import { HEALTH_STATUSES, SYNC_STATUSES } from '../deployments/sync-report';

/** The controller's event (spec "Inbound webhooks"): the Application's name, namespace, sync and health. */
export interface ControllerEvent {
  name: string;
  namespace: string;
  syncStatus: (typeof SYNC_STATUSES)[number];
  revision: string;
  healthStatus: (typeof HEALTH_STATUSES)[number];
  timestamp: string;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const REVISION = /^[0-9a-f]{40}$/;

function at(value: unknown, path: string[]): unknown {
  let v = value;
  for (const key of path)
    v = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

function text(body: unknown, path: string[], max = 253): string {
  const v = at(body, path);
  if (typeof v !== 'string' || v.length === 0 || v.length > max)
    throw new InvalidInput(`${path.join('.')} is required`);
  return v;
}

export function parseControllerEvent(body: unknown): ControllerEvent {
  const syncStatus = text(body, ['app', 'status', 'sync', 'status'], 32);
  const healthStatus = text(body, ['app', 'status', 'health', 'status'], 32);
  if (!(SYNC_STATUSES as readonly string[]).includes(syncStatus)) {
    throw new InvalidInput(`app.status.sync.status must be one of ${SYNC_STATUSES.join(', ')}`);
  }
  if (!(HEALTH_STATUSES as readonly string[]).includes(healthStatus)) {
    throw new InvalidInput(`app.status.health.status must be one of ${HEALTH_STATUSES.join(', ')}`);
  }
  const revision = text(body, ['app', 'status', 'sync', 'revision'], 64);
  if (!REVISION.test(revision)) throw new InvalidInput('app.status.sync.revision must be a 40-digit commit SHA');
  const timestamp = text(body, ['timestamp'], 40);
  if (!ISO_UTC.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
    throw new InvalidInput('timestamp must be ISO 8601 in UTC');
  }
  return {
    name: text(body, ['app', 'metadata', 'name']),
    namespace: text(body, ['app', 'metadata', 'namespace'], 63),
    syncStatus: syncStatus as ControllerEvent['syncStatus'],
    healthStatus: healthStatus as ControllerEvent['healthStatus'],
    revision,
    timestamp,
  };
}
