import type { ValidationEngine, ValidationResult } from '../validation';
import type { ProjectEnvironment } from '../projects/project-environment-repository';
import type { ProjectPolicy } from '../projects/project-repository';
import { isKubernetesManifest, targetOf } from '../delivery-layout/target-paths';
import { RenderedFiles } from './rendered-files';

export interface FileValidationResult extends ValidationResult {
  file: string;
  environment: string;
  kubernetesVersion: string;
  /** A warning about a deprecated (or alpha) apiVersion: what `validation.deprecations` governs. */
  deprecation: boolean;
}

export interface DeliveryValidation {
  /** Environments whose files were validated (their "validate on preview/generate" setting is on). */
  environments: { environment: string; kubernetesVersion: string }[];
  files: number;
  summary: { errors: number; warnings: number; deprecations: number };
  results: FileValidationResult[];
  /** What the project policy makes of it: true when the commit is refused. */
  blocked: boolean;
  policy: ProjectPolicy['validation'];
}

/** Results kept in a response at most (the summary counts all). */
const MAX_RESULTS = 1000;

/**
 * Validates the generated Kubernetes manifests (Deployments, Services, ConfigMaps; kustomize and Argo CD files are the
 * generator's own) of the environments `selected` picks, each against its environment's Kubernetes version, and
 * applies the project policy: errors block unless `validation.errors` is `warn`, deprecations block when
 * `validation.deprecations` is `block`. A generated manifest of a RenderedFiles is validated from its object.
 */
export function validateDelivery(
  engine: ValidationEngine,
  files: Map<string, string>,
  environments: ProjectEnvironment[],
  selected: (env: ProjectEnvironment) => boolean,
  policy: ProjectPolicy['validation'],
): DeliveryValidation {
  const versions = new Map(environments.filter(selected).map((e) => [e.environment, e.kubernetesVersion]));
  const results: FileValidationResult[] = [];
  const summary = { errors: 0, warnings: 0, deprecations: 0 };
  let count = 0;
  for (const [file, text] of files) {
    const target = targetOf(file);
    const version = target ? versions.get(target.environment) : undefined;
    if (!target || !version || !isKubernetesManifest(file)) continue;
    count += 1;
    const value = files instanceof RenderedFiles ? files.objects.get(file) : undefined;
    const options = { bestPractices: false };
    const response =
      value === undefined
        ? engine.validate(text, version, options)
        : engine.validateWritten(text, value, version, options);
    for (const r of response.results) {
      const deprecation = r.severity === 'warning' && r.path === 'apiVersion';
      if (r.severity === 'error') summary.errors += 1;
      else if (r.severity === 'warning') summary.warnings += 1;
      if (deprecation) summary.deprecations += 1;
      if (results.length < MAX_RESULTS) {
        results.push({ ...r, file, environment: target.environment, kubernetesVersion: version, deprecation });
      }
    }
  }
  const blocked =
    (summary.errors > 0 && policy.errors === 'block') || (summary.deprecations > 0 && policy.deprecations === 'block');
  return {
    environments: [...versions].map(([environment, kubernetesVersion]) => ({ environment, kubernetesVersion })),
    files: count,
    summary,
    results,
    blocked,
    policy,
  };
}
