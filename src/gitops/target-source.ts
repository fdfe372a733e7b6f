import { chartValues } from '../tools/kustomize-render';
import type { WorkloadSource, WorkloadSpec } from '../projects/workload-spec';

/**
 * What a rendered target was rendered from, recorded as annotations of its `kustomization.yaml` (kustomize keeps a
 * Kustomization's own metadata out of the build), so the environment compare reads what each side deploys from the
 * repository itself (docs/gitops.md "Source annotations"):
 *
 *     delivery-platform/source        `chart <name> <version>` or `kustomize-base <name> <version>`
 *     delivery-platform/helm-values   charts: the values helm rendered the target with (JSON), the target's image
 *                                     and replica count included
 */
export const SOURCE_ANNOTATION = 'delivery-platform/source';
export const HELM_VALUES_ANNOTATION = 'delivery-platform/helm-values';

/** The annotations of a target rendered from `source` with the target's effective spec. */
export function sourceAnnotations(source: WorkloadSource, spec: Pick<WorkloadSpec, 'image' | 'replicas'>) {
  const annotations: Record<string, string> = {
    [SOURCE_ANNOTATION]: `${source.kind} ${source.name} ${source.version}`,
  };
  if (source.kind === 'chart') {
    const values = chartValues(source.values ?? {}, { image: spec.image, replicas: spec.replicas });
    annotations[HELM_VALUES_ANNOTATION] = JSON.stringify(values);
  }
  return annotations;
}

/** What the compare shows of a target's source: its chart, its helm values, the base its overlay builds on. */
export interface TargetSource {
  'chart-versions': string | null;
  'helm-values': unknown;
  overlays: string | null;
}

/** The recorded source of a target from its kustomization's annotations (all null: generated from the workload). */
export function targetSourceOf(annotations: Record<string, unknown> | undefined): TargetSource {
  const recorded = annotations?.[SOURCE_ANNOTATION];
  const [kind, ...rest] = typeof recorded === 'string' ? recorded.split(' ') : [];
  const values = annotations?.[HELM_VALUES_ANNOTATION];
  let helmValues: unknown = null;
  if (typeof values === 'string') {
    try {
      helmValues = JSON.parse(values) as unknown;
    } catch {
      // A hand-edited annotation that is not JSON is still a difference when the text differs.
      helmValues = values;
    }
  }
  return {
    'chart-versions': kind === 'chart' ? rest.join(' ') : null,
    'helm-values': helmValues,
    overlays: kind === 'kustomize-base' ? rest.join(' ') : null,
  };
}
