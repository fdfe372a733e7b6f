import type { EffectiveProjectArgo } from './project-repository';
import type { EnvironmentArgoSettings, ProjectArgoSettings, SyncPolicy } from './argocd-settings';

/** Drops the keys whose value is null or undefined (null in a PATCH resets a field to its default). */
function compact<T extends object>(value: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
}

/** A PATCH of an environment's Argo CD settings merged into what is stored; `syncPolicy: null` restores defaults. */
export function mergeEnvironmentArgo(
  stored: EnvironmentArgoSettings,
  changes: {
    destination?: { namespaceTemplate?: string | null; server?: string | null; allowSharedNamespace?: boolean };
    syncPolicy?: Partial<SyncPolicy> | null;
  },
): EnvironmentArgoSettings {
  const destination = compact<NonNullable<EnvironmentArgoSettings['destination']>>({
    ...stored.destination,
    ...changes.destination,
  });
  const syncPolicy =
    changes.syncPolicy === null ? {} : compact<Partial<SyncPolicy>>({ ...stored.syncPolicy, ...changes.syncPolicy });
  return {
    ...(Object.keys(destination).length > 0 ? { destination } : {}),
    ...(Object.keys(syncPolicy).length > 0 ? { syncPolicy } : {}),
  };
}

/** A PATCH of the project's Argo CD settings over the effective ones (the stored form keeps every field). */
export function mergeProjectArgo(
  current: EffectiveProjectArgo,
  changes: { namespaceTemplate?: string | null; appProject?: ProjectArgoSettings['appProject'] },
): ProjectArgoSettings {
  const namespaceTemplate = changes.namespaceTemplate === null ? undefined : changes.namespaceTemplate;
  return compact<ProjectArgoSettings>({
    namespaceTemplate: namespaceTemplate ?? (changes.namespaceTemplate === null ? null : current.namespaceTemplate),
    appProject: { ...current.appProject, ...changes.appProject },
  });
}
