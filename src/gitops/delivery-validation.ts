import type { ValidationEngine, ValidationResponse, ValidationResult } from '../validation';
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

/** What the generated manifests are validated with: their schemas and rules, no best-practice advice. */
const OPTIONS = { bestPractices: false };

/** One validation of a tree's files, file by file: `add` each, then `result`. */
class DeliveryValidationRun {
  private readonly versions: Map<string, string>;
  /** Each version's validator of written manifests, made at its first manifest. */
  private readonly written = new Map<string, (text: string, value: unknown) => ValidationResponse>();
  private readonly results: FileValidationResult[] = [];
  private readonly summary = { errors: 0, warnings: 0, deprecations: 0 };
  private count = 0;

  constructor(
    private readonly engine: ValidationEngine,
    environments: ProjectEnvironment[],
    selected: (env: ProjectEnvironment) => boolean,
    private readonly policy: ProjectPolicy['validation'],
  ) {
    this.versions = new Map(environments.filter(selected).map((e) => [e.environment, e.kubernetesVersion]));
  }

  add(files: Map<string, string>, file: string, text: string): void {
    const target = targetOf(file);
    const version = target ? this.versions.get(target.environment) : undefined;
    if (!target || !version || !isKubernetesManifest(file)) return;
    this.count += 1;
    const value = files instanceof RenderedFiles ? files.objects.get(file) : undefined;
    const response =
      value === undefined ? this.engine.validate(text, version, OPTIONS) : this.writtenOf(version)(text, value);
    for (const r of response.results) {
      const deprecation = r.severity === 'warning' && r.path === 'apiVersion';
      if (r.severity === 'error') this.summary.errors += 1;
      else if (r.severity === 'warning') this.summary.warnings += 1;
      if (deprecation) this.summary.deprecations += 1;
      if (this.results.length < MAX_RESULTS) {
        this.results.push({ ...r, file, environment: target.environment, kubernetesVersion: version, deprecation });
      }
    }
  }

  private writtenOf(version: string): (text: string, value: unknown) => ValidationResponse {
    let validator = this.written.get(version);
    if (!validator) this.written.set(version, (validator = this.engine.writtenValidator(version, OPTIONS)));
    return validator;
  }

  result(): DeliveryValidation {
    const { summary, policy } = this;
    const blocked =
      (summary.errors > 0 && policy.errors === 'block') ||
      (summary.deprecations > 0 && policy.deprecations === 'block');
    return {
      environments: [...this.versions].map(([environment, kubernetesVersion]) => ({ environment, kubernetesVersion })),
      files: this.count,
      summary,
      results: this.results,
      blocked,
      policy,
    };
  }
}

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
  const run = new DeliveryValidationRun(engine, environments, selected, policy);
  for (const [file, text] of files) run.add(files, file, text);
  return run.result();
}

/**
 * How long validateDeliveryInTurns works before it lets the event loop run (issue 46: each of the commit's round trips
 * waits for a turn; at 5 ms a 1,000-Application generate's rows reached PostgreSQL late enough that the answer waited
 * 30-40 ms for them after the validation ended, at 2 ms they are written while it validates).
 */
const TURN_MS = 2;

/**
 * validateDelivery, letting the event loop run every few milliseconds: a generate validates while its commit is
 * prepared (commit-operation.ts CommitGate), whose round trips and rows go on between the turns.
 */
export async function validateDeliveryInTurns(
  engine: ValidationEngine,
  files: Map<string, string>,
  environments: ProjectEnvironment[],
  selected: (env: ProjectEnvironment) => boolean,
  policy: ProjectPolicy['validation'],
): Promise<DeliveryValidation> {
  const run = new DeliveryValidationRun(engine, environments, selected, policy);
  let turn = performance.now();
  for (const [file, text] of files) {
    run.add(files, file, text);
    if (performance.now() - turn < TURN_MS) continue;
    await new Promise((resolve) => setImmediate(resolve));
    turn = performance.now();
  }
  return run.result();
}
