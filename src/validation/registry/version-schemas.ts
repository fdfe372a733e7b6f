import Ajv, { type ValidateFunction } from 'ajv';
import type { BundleResource, K8sBundle } from '../bundle/bundle-types';
import type { JsonRecord } from '../json';
import { applyConstraints, type CuratedConstraints } from './constraints';
import { addBuiltinFormats } from './formats';
import { prepareForValidation } from './schema-prep';

export interface KindEntry extends BundleResource {
  /** `v1` for the core group, `<group>/<version>` otherwise. */
  apiVersion: string;
}

export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

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

  constructor(bundle: K8sBundle, constraints: CuratedConstraints) {
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

  /** Compiled once per kind; the first call per release compiles the shared definitions it reaches. */
  validatorFor(entry: KindEntry): ValidateFunction {
    const cached = this.validators.get(entry.definition);
    if (cached) return cached;
    const validate = this.compiler().getSchema(`k8s#/definitions/${entry.definition}`);
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
      // The browser keeps the definitions as published; the validator gets its own closed copy.
      const definitions = structuredClone(this.definitions);
      for (const schema of Object.values(definitions)) prepareForValidation(schema);
      this.ajv = new Ajv({ allErrors: true, strict: false, logger: false, validateFormats: true });
      addBuiltinFormats(this.ajv);
      this.ajv.addSchema({ $id: 'k8s', definitions });
    }
    return this.ajv;
  }
}
