import type { ReadinessCheck } from '../http/readiness';
import { listResources, schemaTree } from './browser/resource-catalog';
import { checkCrd } from './crd/check-crd';
import type { CrdRecord } from './crd/crd-types';
import { CrdValidators } from './crd/crd-validators';
import { customKindsFor } from './crd/custom-kinds';
import { resolveLimits, type ManifestLimits } from './manifest/limits';
import { parseDocument } from './manifest/parse-manifest';
import type { DocumentChunk } from './manifest/split-documents';
import { clip, clipResult } from './result-bounds';
import { SchemaRegistry, type RegistryInitOptions } from './registry/schema-registry';
import type { DeprecationList, ResourceListEntry, SchemaTree, ValidationResponse } from './types';
import {
  resourcesOf,
  validateManifest,
  validateWrittenManifest,
  validateResources,
  type ManifestContext,
  type ResourceReport,
} from './validate-manifest';
import { SUPPORTED_K8S_VERSIONS } from './versions';

export interface EngineOptions {
  /** Folder of the bundles and curated files; schemas/k8s of the repository by default. */
  schemaDir?: string;
  /** Limits for every request (the defaults of DEFAULT_LIMITS otherwise). */
  limits?: Partial<ManifestLimits>;
}

export interface ValidateOptions {
  /** The caller's registered CRDs (from checkCrd), whose kinds then validate against their schemas. */
  crds?: readonly CrdRecord[];
  /** Per-call limits, over the engine's. */
  limits?: Partial<ManifestLimits>;
  /** Report the info-level best-practice results (default true). */
  bestPractices?: boolean;
}

/**
 * The Kubernetes manifest validation engine: one per process, built at the composition root and handed
 * to whoever validates (the k8s routes, release creation, the delivery generator, the CLI).
 *
 * Errors it throws, all AppErrors with their HTTP status: SchemaRegistryNotReady (503) before init() has
 * resolved, UnsupportedK8sVersion (400), ManifestRejected (400, or 413 for size), InvalidCrd (400; its subclass
 * UnsupportedCrdPattern for a `pattern` the linear-time engine of src/safe-regex cannot run).
 */
export class ValidationEngine {
  private readonly registry: SchemaRegistry;
  private readonly crdValidators = new CrdValidators();
  private readonly limits: ManifestLimits;

  constructor(options: EngineOptions = {}) {
    this.registry = new SchemaRegistry(options.schemaDir);
    this.limits = resolveLimits(options.limits);
  }

  /** Loads the curated data and checks the bundles; `preload` also compiles releases up front. */
  init(options: RegistryInitOptions = {}): Promise<void> {
    return this.registry.init(options);
  }

  isReady(): boolean {
    return this.registry.isReady();
  }

  /** For /readyz: not ready, with the spec's wording, until init() has resolved. */
  readinessCheck(): ReadinessCheck {
    return {
      name: 'k8s-schemas',
      check: () => Promise.resolve(this.isReady() ? null : 'K8s schema registry not initialized'),
    };
  }

  versions(): string[] {
    return [...SUPPORTED_K8S_VERSIONS];
  }

  validate(yamlText: string, version: string, options: ValidateOptions = {}): ValidationResponse {
    return validateManifest(yamlText, this.context(version, options));
  }

  /**
   * Validates manifests this process dumped, each from its `value` (the generator's own: src/gitops/rendered-files.ts):
   * the answer validate(yamlText) gives, without parsing the text back. For many manifests of one release with the
   * same options: the context (schemas, limits, custom kinds) is made once, not for each (a generate validates 3,000).
   */
  writtenValidator(
    version: string,
    options: ValidateOptions = {},
  ): (yamlText: string, value: unknown) => ValidationResponse {
    const ctx = this.context(version, options);
    return (yamlText, value) => validateWrittenManifest(yamlText, value, ctx);
  }

  /**
   * One document of a stream the caller splits (the CLI reads files this way, one document in memory at a
   * time): its resources and their results. The limits apply to this document alone; ManifestRejected
   * refuses this document only.
   */
  documentValidator(
    version: string,
    options: ValidateOptions = {},
  ): (chunk: DocumentChunk, index: number) => ResourceReport[] {
    const ctx = this.context(version, options);
    return (chunk, index) => {
      const doc = parseDocument(chunk, index, ctx.limits, { nodes: 0, aliases: 0 });
      return validateResources(resourcesOf([doc], ctx.limits), ctx).map((report) => ({
        ...report,
        resource: clip(report.resource, ctx.limits.maxTextLength),
        results: report.results.map((r) => clipResult(r, ctx.limits)),
      }));
    };
  }

  private context(version: string, options: ValidateOptions): ManifestContext {
    return {
      schemas: this.registry.schemas(version),
      deprecations: this.registry.deprecations,
      nameNotRequired: this.registry.constraints.nameNotRequired,
      customKinds: customKindsFor(options.crds ?? [], this.crdValidators),
      limits: resolveLimits(this.limits, options.limits),
      bestPractices: options.bestPractices ?? true,
    };
  }

  listResources(version: string, crds: readonly CrdRecord[] = []): ResourceListEntry[] {
    return listResources(this.registry.schemas(version), crds);
  }

  /** Null when the kind is unknown to the release and to `crds` (the route answers 404 `resource schema not found`). */
  getSchemaTree(gvk: string, version: string, crds: readonly CrdRecord[] = []): SchemaTree | null {
    return schemaTree(this.registry.schemas(version), crds, gvk);
  }

  listDeprecations(version: string): DeprecationList {
    const schemas = this.registry.schemas(version);
    return { version, deprecations: this.registry.deprecations.listFor(schemas) };
  }

  checkCrd(yamlText: string): CrdRecord {
    return checkCrd(yamlText, { limits: this.limits, validators: this.crdValidators });
  }
}
