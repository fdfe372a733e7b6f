import type { CrdRecord, CrdVersion } from '../crd/crd-types';
import type { JsonRecord } from '../json';
import type { KindEntry, VersionSchemas } from '../registry/version-schemas';
import type { ResourceListEntry, SchemaTree } from '../types';
import { formatGvk, parseGvk } from './gvk';
import { SchemaTreeBuilder } from './schema-tree';

function description(schema: JsonRecord | undefined): string {
  return typeof schema?.description === 'string' ? schema.description : '';
}

function builtinEntry(schemas: VersionSchemas, k: KindEntry): ResourceListEntry {
  return {
    kind: k.kind,
    apiVersion: k.apiVersion,
    description: description(schemas.definitions[k.definition]),
    gvk: formatGvk(k.group, k.version, k.kind),
    namespaced: k.namespaced ?? true,
    custom: false,
  };
}

function customEntry(crd: CrdRecord, version: CrdVersion): ResourceListEntry {
  return {
    kind: crd.kind,
    apiVersion: `${crd.group}/${version.name}`,
    description: description(version.schema),
    gvk: formatGvk(crd.group, version.name, crd.kind),
    namespaced: crd.scope === 'Namespaced',
    custom: true,
  };
}

/** The kinds of one release (typed `...List` kinds left out) plus the served versions of the caller's CRDs. */
export function listResources(schemas: VersionSchemas, crds: readonly CrdRecord[]): ResourceListEntry[] {
  const builtin = schemas.kinds.filter((k) => !k.kind.endsWith('List')).map((k) => builtinEntry(schemas, k));
  const custom = crds.flatMap((crd) => crd.versions.map((v) => customEntry(crd, v)));
  return [...builtin, ...custom].sort((a, b) => a.gvk.localeCompare(b.gvk));
}

/** The field tree of one kind, or null when neither the release nor the caller's CRDs define it. */
export function schemaTree(schemas: VersionSchemas, crds: readonly CrdRecord[], gvk: string): SchemaTree | null {
  const id = parseGvk(gvk);
  if (!id) return null;
  const apiVersion = id.group === '' ? id.version : `${id.group}/${id.version}`;
  const builtin = schemas.find(apiVersion, id.kind);
  if (builtin) {
    const schema = schemas.definitions[builtin.definition] ?? {};
    return {
      ...builtinEntry(schemas, builtin),
      version: schemas.version,
      fields: new SchemaTreeBuilder(schemas.definitions).fields(schema),
    };
  }
  for (const crd of crds) {
    const version = crd.group === id.group && crd.kind === id.kind && crd.versions.find((v) => v.name === id.version);
    if (version) {
      return {
        ...customEntry(crd, version),
        version: schemas.version,
        fields: new SchemaTreeBuilder({}).fields(version.schema),
      };
    }
  }
  return null;
}
