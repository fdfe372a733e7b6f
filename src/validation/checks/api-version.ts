import type { ValidateFunction } from 'ajv';
import type { Deprecations } from '../deprecations';
import type { KindEntry, VersionSchemas } from '../registry/version-schemas';
import type { ValidationResult } from '../types';

/** What a resource is validated against: a built-in kind of the release, or a version of a registered CRD. */
export type SchemaTarget =
  { source: 'builtin'; entry: KindEntry } | { source: 'crd'; validate: ValidateFunction; deprecationWarning?: string };

/** Served custom resources, keyed `<apiVersion>\n<kind>`, as supplied for one request. */
export type CustomKinds = ReadonlyMap<string, () => SchemaTarget>;

export interface ApiVersionCheck {
  target?: SchemaTarget;
  results: ValidationResult[];
}

interface Context {
  schemas: VersionSchemas;
  deprecations: Deprecations;
  customKinds: CustomKinds;
  resource: string;
}

/**
 * The two checks on a resource's type: its apiVersion must be served by the target release (error, and a
 * warning while deprecated or alpha), and its kind must be one the release or a registered CRD defines (error).
 */
export function checkApiVersion(apiVersion: string, kind: string, ctx: Context): ApiVersionCheck {
  const { schemas, deprecations, resource } = ctx;
  const version = schemas.version;
  const error = (path: string, message: string): ValidationResult => ({ severity: 'error', message, path, resource });
  const warning = (message: string): ValidationResult => ({
    severity: 'warning',
    message,
    path: 'apiVersion',
    resource,
  });
  const record = deprecations.find(apiVersion, kind);
  const entry = schemas.find(apiVersion, kind);
  if (entry) {
    const results: ValidationResult[] = [];
    if (record && deprecations.isDeprecated(record, version))
      results.push(warning(deprecations.message(record, schemas)));
    if (/alpha\d*$/.test(entry.version)) {
      results.push(
        warning(`${apiVersion} is an alpha API version: Kubernetes ${version} serves it only when enabled explicitly`),
      );
    }
    return { target: { source: 'builtin', entry }, results };
  }
  const custom = ctx.customKinds.get(`${apiVersion}\n${kind}`)?.();
  if (custom) {
    const results = custom.source === 'crd' && custom.deprecationWarning ? [warning(custom.deprecationWarning)] : [];
    return { target: custom, results };
  }
  if (record && deprecations.isRemoved(record, version)) {
    return { results: [error('apiVersion', deprecations.message(record, schemas))] };
  }
  const servedAs = schemas.kindsNamed(kind).map((k) => k.apiVersion);
  if (servedAs.length > 0) {
    return {
      results: [
        error(
          'apiVersion',
          `${apiVersion} does not serve kind ${kind} in Kubernetes ${version}; ${kind} is served as ${servedAs.join(', ')}`,
        ),
      ],
    };
  }
  const where = schemas.servesGroupVersion(apiVersion)
    ? `apiVersion ${apiVersion}`
    : `apiVersion ${apiVersion} (neither a built-in API nor a registered CRD)`;
  return { results: [error('kind', `kind ${kind} is not recognised for ${where} in Kubernetes ${version}`)] };
}
