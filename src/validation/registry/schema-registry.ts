import fs from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../paths';
import { Deprecations } from '../deprecations';
import { SchemaRegistryNotReady, UnsupportedK8sVersion } from '../errors';
import { isSupportedVersion, SUPPORTED_K8S_VERSIONS } from '../versions';
import { bundlePath, loadBundle } from './bundle-loader';
import { loadConstraints, type CuratedConstraints } from './constraints';
import { loadPrecompiled, precompiledDir } from './precompiled-validators';
import { VersionSchemas } from './version-schemas';

export function defaultSchemaDir(): string {
  return path.join(repoRoot(), 'schemas', 'k8s');
}

export interface RegistryInitOptions {
  /** Load these versions (all: true) and compile their common validators now rather than on first use. */
  preload?: boolean | readonly string[];
}

/**
 * The Kubernetes schemas of every supported release. `init()` reads the small curated files and checks
 * that every bundle is present; a release's bundle is read and compiled the first time it is asked for
 * (or at init with `preload`). Until `init()` has resolved, every lookup throws SchemaRegistryNotReady (503).
 */
export class SchemaRegistry {
  private ready = false;
  private curated: { constraints: CuratedConstraints; deprecations: Deprecations } | undefined;
  private readonly loaded = new Map<string, VersionSchemas>();

  /** `validatorDir`: precompiled validators (dist/validators when running compiled), undefined for none. */
  constructor(
    readonly dir: string = defaultSchemaDir(),
    private readonly validatorDir: string | undefined = precompiledDir(),
  ) {}

  async init(options: RegistryInitOptions = {}): Promise<void> {
    await Promise.all(SUPPORTED_K8S_VERSIONS.map((v) => fs.access(bundlePath(this.dir, v))));
    this.curated = { constraints: loadConstraints(this.dir), deprecations: Deprecations.load(this.dir) };
    const preload = options.preload === true ? SUPPORTED_K8S_VERSIONS : options.preload || [];
    for (const version of preload) {
      // One release at a time, yielding in between, so a starting API keeps answering /readyz meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      this.load(version).warm();
    }
    this.ready = true;
  }

  isReady(): boolean {
    return this.ready;
  }

  get deprecations(): Deprecations {
    return this.curatedData().deprecations;
  }

  get constraints(): CuratedConstraints {
    return this.curatedData().constraints;
  }

  /** The schemas of one release; throws UnsupportedK8sVersion (400) for a version outside 1.25..1.32. */
  schemas(version: string): VersionSchemas {
    if (!this.ready) throw new SchemaRegistryNotReady();
    return this.load(version);
  }

  private curatedData(): { constraints: CuratedConstraints; deprecations: Deprecations } {
    if (!this.curated) throw new SchemaRegistryNotReady();
    return this.curated;
  }

  private load(version: string): VersionSchemas {
    if (!isSupportedVersion(version)) throw new UnsupportedK8sVersion(version, SUPPORTED_K8S_VERSIONS);
    let schemas = this.loaded.get(version);
    if (!schemas) {
      const precompiled = loadPrecompiled(this.validatorDir, this.dir, version);
      schemas = new VersionSchemas(loadBundle(this.dir, version), this.curatedData().constraints, precompiled);
      this.loaded.set(version, schemas);
    }
    return schemas;
  }
}
