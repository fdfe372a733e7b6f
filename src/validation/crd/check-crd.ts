import { InvalidCrd } from '../errors';
import { arrayField, isRecord, recordField, stringField, type JsonRecord } from '../json';
import { resolveLimits, type ManifestLimits } from '../manifest/limits';
import { parseManifest } from '../manifest/parse-manifest';
import type { CrdRecord, CrdVersion } from './crd-types';
import { CrdValidators } from './crd-validators';
import { checkSchemaPatterns } from './schema-patterns';
import { structuralViolation } from './structural-schema';
import { convertV1beta1Spec } from './v1beta1-conversion';

const V1 = 'apiextensions.k8s.io/v1';
const V1BETA1 = 'apiextensions.k8s.io/v1beta1';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function label(value: string | undefined, what: string, pattern: RegExp): string {
  if (!value) throw new InvalidCrd(`${what} is required`);
  if (value.length > 63 || !pattern.test(value)) throw new InvalidCrd(`${what} "${value}" is not a valid DNS label`);
  return value;
}

function parseSingleDocument(yamlText: string, limits: ManifestLimits): JsonRecord {
  const docs = parseManifest(yamlText, limits).filter((d) => d.value !== undefined || d.syntaxError);
  if (docs.length !== 1) throw new InvalidCrd(`expected exactly one YAML document, found ${docs.length}`);
  const [doc] = docs;
  if (doc?.syntaxError) throw new InvalidCrd(doc.syntaxError);
  if (!isRecord(doc?.value)) throw new InvalidCrd('the document is not a mapping');
  return doc.value;
}

function checkVersion(raw: unknown, i: number): CrdVersion & { served: boolean } {
  const where = `spec.versions[${i}]`;
  if (!isRecord(raw)) throw new InvalidCrd(`${where} must be a mapping`);
  const name = label(stringField(raw, 'name'), `${where}.name`, DNS1035_LABEL);
  if (typeof raw.served !== 'boolean') throw new InvalidCrd(`${where}.served must be true or false`);
  if (typeof raw.storage !== 'boolean') throw new InvalidCrd(`${where}.storage must be true or false`);
  const schema = recordField(recordField(raw, 'schema') ?? {}, 'openAPIV3Schema');
  if (!schema) throw new InvalidCrd(`${where}.schema.openAPIV3Schema is required`);
  const violation = structuralViolation(schema, `${where}.schema.openAPIV3Schema`, true);
  if (violation) throw new InvalidCrd(`schema is not structural: ${violation}`);
  checkSchemaPatterns(schema, `${where}.schema.openAPIV3Schema`);
  const warning = stringField(raw, 'deprecationWarning');
  return {
    name,
    served: raw.served,
    storage: raw.storage,
    schema,
    deprecated: raw.deprecated === true,
    ...(warning !== undefined ? { deprecationWarning: warning } : {}),
  };
}

/**
 * Checks one uploaded CustomResourceDefinition the way apiextensions-apiserver would accept it (naming,
 * versions, structural schemas) and returns what validating its custom resources needs. Throws InvalidCrd
 * (400, `invalid CRD: <reason>`), or ManifestRejected for a hostile document. A v1beta1 CRD is converted to
 * v1 first and must then pass the same checks; the record says so in `convertedFrom`.
 */
export function checkCrd(
  yamlText: string,
  options: { limits?: Partial<ManifestLimits>; validators?: CrdValidators } = {},
): CrdRecord {
  const crd = parseSingleDocument(yamlText, resolveLimits(options.limits));
  const apiVersion = stringField(crd, 'apiVersion');
  if (stringField(crd, 'kind') !== 'CustomResourceDefinition')
    throw new InvalidCrd('kind must be CustomResourceDefinition');
  if (apiVersion !== V1 && apiVersion !== V1BETA1) throw new InvalidCrd(`apiVersion must be ${V1}`);
  const uploadedSpec = recordField(crd, 'spec');
  if (!uploadedSpec) throw new InvalidCrd('spec is required');
  const spec = apiVersion === V1BETA1 ? convertV1beta1Spec(uploadedSpec) : uploadedSpec;
  const group = stringField(spec, 'group') ?? '';
  if (!group.includes('.') || group.length > 253 || !DNS1123_SUBDOMAIN.test(group)) {
    throw new InvalidCrd(`spec.group "${group}" must be a DNS subdomain with at least one dot`);
  }
  const names = recordField(spec, 'names') ?? {};
  const plural = label(stringField(names, 'plural'), 'spec.names.plural', DNS1123_LABEL);
  const singular = stringField(names, 'singular') ?? plural;
  label(singular, 'spec.names.singular', DNS1123_LABEL);
  const kind = stringField(names, 'kind') ?? '';
  label(kind.toLowerCase(), 'spec.names.kind', DNS1035_LABEL);
  const listKind = stringField(names, 'listKind') ?? `${kind}List`;
  const name = stringField(recordField(crd, 'metadata') ?? {}, 'name');
  if (name !== `${plural}.${group}`)
    throw new InvalidCrd(`metadata.name must be "${plural}.${group}" (spec.names.plural + "." + spec.group)`);
  const scope = stringField(spec, 'scope');
  if (scope !== 'Namespaced' && scope !== 'Cluster') throw new InvalidCrd('spec.scope must be Namespaced or Cluster');
  if (spec.preserveUnknownFields === true) {
    throw new InvalidCrd(
      'spec.preserveUnknownFields must be false; use x-kubernetes-preserve-unknown-fields in the schema',
    );
  }
  const versions = (arrayField(spec, 'versions') ?? []).map(checkVersion);
  if (versions.length === 0) throw new InvalidCrd('spec.versions must list at least one version');
  if (new Set(versions.map((v) => v.name)).size !== versions.length)
    throw new InvalidCrd('spec.versions names must be unique');
  if (versions.filter((v) => v.storage).length !== 1)
    throw new InvalidCrd('exactly one of spec.versions must have storage: true');
  const record: CrdRecord = {
    name,
    group,
    kind,
    plural,
    singular,
    listKind,
    scope,
    versions: versions.filter((v) => v.served).map(({ served: _served, ...version }) => version),
    ...(apiVersion === V1BETA1 ? { convertedFrom: V1BETA1 } : {}),
  };
  // Compiling is the last check (a schema ajv cannot compile is refused); the engine keeps the result.
  const compiler = options.validators ?? new CrdValidators();
  for (const version of record.versions) {
    try {
      compiler.validatorFor(record, version);
    } catch (error) {
      throw new InvalidCrd(`spec.versions ${version.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return record;
}
