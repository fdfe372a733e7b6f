import type { ChangedTargetRow, WindowEventRow } from './deployment-history-repository';

/** One commit that changed the Application's desired content. */
export interface VersionChange {
  at: string;
  revision: string;
  from: string | null;
  to: string | null;
  cause: string | null;
  by: { kind: string | null; id: string | null; actor: string | null; title: string | null };
  auditIds: string[];
}

/** One report that changed the Application's health (or the first report in the window after none). */
export interface HealthTransition {
  at: string;
  reportedAt: string;
  revision: string;
  version: string | null;
  syncStatus: string | null;
  from: string | null;
  to: string | null;
}

interface State {
  version: string | null;
  liveVersion: string | null;
  syncStatus: string | null;
  healthStatus: string | null;
}

/** The release kind and title of a release id (rollbacks are releases of kind `rollback`). */
export type ReleaseLookup = (id: string) => { kind: string; title: string } | undefined;

/**
 * What happened to one Application in a window, from its state at the start and its commit and report events in the
 * window (oldest first): each version change with its cause, and each health transition. Reports that keep the
 * health (a sync change only) are not transitions; the state at the end follows every event.
 */
export function targetChanges(base: ChangedTargetRow, events: WindowEventRow[], releases: ReleaseLookup) {
  const start: State = {
    version: base.base_version,
    liveVersion: base.base_live_version,
    syncStatus: base.base_sync_status,
    healthStatus: base.base_health_status,
  };
  const state = { ...start };
  const changes: VersionChange[] = [];
  const health: HealthTransition[] = [];
  for (const e of events) {
    if (e.kind === 'commit') {
      const release = e.source_kind === 'release' && e.source_id ? releases(e.source_id) : undefined;
      changes.push({
        at: e.at.toISOString(),
        revision: e.revision,
        from: state.version,
        to: e.version,
        cause: release?.kind === 'rollback' ? 'rollback' : e.source_kind,
        by: { kind: e.source_kind, id: e.source_id, actor: e.actor, title: release?.title ?? null },
        auditIds: e.audit_ids ?? [],
      });
      state.version = e.version;
      continue;
    }
    if (e.health_status !== state.healthStatus) {
      health.push({
        at: e.at.toISOString(),
        reportedAt: (e.reported_at ?? e.at).toISOString(),
        revision: e.revision,
        version: e.live_version,
        syncStatus: e.sync_status,
        from: state.healthStatus,
        to: e.health_status,
      });
    }
    Object.assign(state, { liveVersion: e.live_version, syncStatus: e.sync_status, healthStatus: e.health_status });
  }
  return { from: start, to: state, changes, health };
}
