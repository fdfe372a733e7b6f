import type Ajv from 'ajv';
import type { Options, ValidateFunction } from 'ajv';
import type { BundleResource, K8sBundle } from '../bundle/bundle-types';
import type { JsonRecord } from '../json';
import { applyConstraints, type CuratedConstraints } from './constraints';
import { addBuiltinFormats } from './formats';
import { newAjv } from './lazy-ajv';
import type { PrecompiledValidators } from './precompiled-validators';
import { validationDefinitions } from './schema-prep';

export interface KindEntry extends BundleResource {
  /** `v1` for the core group, `<group>/<version>` otherwise. */
  apiVersion: string;
}

export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** How built-in kinds are compiled, at run time here and ahead of time by scripts/build-validators.ts. */
export const BUILTIN_AJV_OPTIONS: Options = { allErrors: true, strict: false, logger: false, validateFormats: true };

/** Kinds whose first validation compiles most of the shared definitions (PodSpec and friends). */
const WARM_KINDS = [
  'Deployment',
  'Service',
  'ConfigMap',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Pod',
  'Ingress',
];

/** Everything the engine knows about one Kubernetes minor version, from its bundle plus the curated constraints. */
export class VersionSchemas {
  readonly version: string;
  /** Definitions with the curated constraints applied; what the schema browser shows. */
  readonly definitions: Record<string, JsonRecord>;
  readonly kinds: readonly KindEntry[];
  private readonly byKey = new Map<string, KindEntry>();
  private readonly byKind = new Map<string, KindEntry[]>();
  private readonly groupVersions = new Set<string>();
  private ajv: Ajv | undefined;
  private readonly validators = new Map<string, ValidateFunction>();

  /** `precompiled`: validators generated ahead of time for this bundle, used before compiling anything. */
  constructor(
    bundle: K8sBundle,
    constraints: CuratedConstraints,
    private readonly precompiled?: PrecompiledValidators,
  ) {
    this.version = bundle.kubernetesVersion;
    this.definitions = bundle.definitions;
    applyConstraints(this.definitions, constraints.constraints);
    this.kinds = bundle.resources.map((r) => ({ ...r, apiVersion: apiVersionOf(r.group, r.version) }));
    for (const entry of this.kinds) {
      this.byKey.set(`${entry.apiVersion}\n${entry.kind}`, entry);
      this.byKind.set(entry.kind, [...(this.byKind.get(entry.kind) ?? []), entry]);
      this.groupVersions.add(entry.apiVersion);
    }
  }

  find(apiVersion: string, kind: string): KindEntry | undefined {
    return this.byKey.get(`${apiVersion}\n${kind}`);
  }

  /** Every group-version of this release that serves `kind`. */
  kindsNamed(kind: string): readonly KindEntry[] {
    return this.byKind.get(kind) ?? [];
  }

  servesGroupVersion(apiVersion: string): boolean {
    return this.groupVersions.has(apiVersion);
  }

  /**
   * Precompiled, or compiled once per kind on first use; the first compilation per release compiles the
   * shared definitions it reaches.
   */
  validatorFor(entry: KindEntry): ValidateFunction {
    const cached = this.validators.get(entry.definition);
    if (cached) return cached;
    const validate =
      this.precompiled?.validators[entry.definition] ??
      this.compiler().getSchema(`k8s#/definitions/${entry.definition}`);
    if (!validate) throw new Error(`no definition ${entry.definition} in bundle ${this.version}`);
    this.validators.set(entry.definition, validate);
    return validate;
  }

  warm(): void {
    for (const kind of WARM_KINDS) {
      const entry = this.kindsNamed(kind).find((k) => !/alpha|beta/.test(k.version));
      if (entry) this.validatorFor(entry);
    }
  }

  private compiler(): Ajv {
    if (!this.ajv) {
      this.ajv = newAjv(BUILTIN_AJV_OPTIONS);
      addBuiltinFormats(this.ajv);
      this.ajv.addSchema({ $id: 'k8s', definitions: validationDefinitions(this.definitions) });
    }
    return this.ajv;
  }
}
