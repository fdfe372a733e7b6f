import { readTarGz } from './tar-reader';
import { normalizeOpenApiSchema } from './normalize-openapi';
import { BUNDLE_FORMAT, type BundleResource, type K8sBundle } from './bundle-types';
import { arrayField, isRecord, recordField, stringField, type JsonRecord } from '../json';

const DOC_PATH = /^(\d+\.\d+)\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\.json$/;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface GroupVersionDoc {
  group: string;
  version: string;
  doc: JsonRecord;
}

function gvkList(schema: JsonRecord): { group: string; version: string; kind: string }[] {
  return (arrayField(schema, 'x-kubernetes-group-version-kind') ?? []).filter(isRecord).map((g) => ({
    group: stringField(g, 'group') ?? '',
    version: stringField(g, 'version') ?? '',
    kind: stringField(g, 'kind') ?? '',
  }));
}

/**
 * Kinds with a REST path of their own group-version, and whether any such path is namespaced. Schemas that
 * only carry a GVK (DeleteOptions, WatchEvent, subresource bodies such as Scale) are not manifests.
 */
function servedKinds(gv: GroupVersionDoc): Map<string, boolean> {
  const kinds = new Map<string, boolean>();
  for (const [path, item] of Object.entries(recordField(gv.doc, 'paths') ?? {})) {
    if (!isRecord(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = recordField(item, method);
      const gvk = op && recordField(op, 'x-kubernetes-group-version-kind');
      if (!gvk || stringField(gvk, 'group') !== gv.group || stringField(gvk, 'version') !== gv.version) continue;
      if (/\/\{name\}\/[a-z]+$/.test(path)) continue; // subresources (status, scale, eviction) are not manifests
      const kind = stringField(gvk, 'kind') ?? '';
      kinds.set(kind, (kinds.get(kind) ?? false) || path.includes('/namespaces/{namespace}/'));
    }
  }
  return kinds;
}

function withoutDescriptions(schema: JsonRecord): string {
  return JSON.stringify(schema, (key, value: unknown) => (key === 'description' ? undefined : value));
}

function addVersionDoc(gv: GroupVersionDoc, bundle: K8sBundle, conflicts: string[]): void {
  const schemas = recordField(recordField(gv.doc, 'components') ?? {}, 'schemas') ?? {};
  const served = servedKinds(gv);
  for (const [name, raw] of Object.entries(schemas)) {
    if (!isRecord(raw)) continue;
    const normalized = normalizeOpenApiSchema(raw);
    const existing = bundle.definitions[name];
    if (existing) {
      // The aggregator's documents word some descriptions differently; only a different shape is a conflict.
      if (withoutDescriptions(existing) !== withoutDescriptions(normalized)) conflicts.push(name);
    } else {
      bundle.definitions[name] = normalized;
    }
    for (const gvk of gvkList(raw)) {
      if (gvk.group !== gv.group || gvk.version !== gv.version) continue;
      const itemKind = gvk.kind.endsWith('List') ? gvk.kind.slice(0, -4) : undefined;
      const namespaced = served.get(gvk.kind) ?? (itemKind !== undefined ? served.get(itemKind) : undefined);
      if (namespaced === undefined) continue;
      bundle.resources.push({ group: gv.group, version: gv.version, kind: gvk.kind, definition: name, namespaced });
    }
  }
}

function compareResources(a: BundleResource, b: BundleResource): number {
  return a.group.localeCompare(b.group) || a.version.localeCompare(b.version) || a.kind.localeCompare(b.kind);
}

export interface BuildOutput {
  bundles: K8sBundle[];
  /** Definition names whose normalized schema differs between group-version documents of one version. */
  conflicts: string[];
}

/** Turns openapi-v3.tar.gz (one OpenAPI document per group-version per minor) into one bundle per minor. */
export function buildBundles(openapiTarGz: Buffer, source: string): BuildOutput {
  const byMinor = new Map<string, GroupVersionDoc[]>();
  for (const entry of readTarGz(openapiTarGz)) {
    const m = DOC_PATH.exec(entry.path);
    if (!m?.[1]) continue;
    const doc: unknown = JSON.parse(entry.content.toString('utf8'));
    if (!isRecord(doc)) continue;
    const docs = byMinor.get(m[1]) ?? [];
    docs.push({ group: m[3] ?? '', version: m[2] ?? m[4] ?? '', doc });
    byMinor.set(m[1], docs);
  }
  const conflicts: string[] = [];
  const bundles = [...byMinor.entries()]
    .sort(([a], [b]) => Number(a.split('.')[1]) - Number(b.split('.')[1]))
    .map(([minor, docs]) => {
      const bundle: K8sBundle = {
        format: BUNDLE_FORMAT,
        kubernetesVersion: minor,
        source,
        resources: [],
        definitions: {},
      };
      docs.sort((a, b) => `${a.group}/${a.version}`.localeCompare(`${b.group}/${b.version}`));
      for (const gv of docs) addVersionDoc(gv, bundle, conflicts);
      bundle.resources.sort(compareResources);
      bundle.definitions = Object.fromEntries(
        Object.entries(bundle.definitions).sort(([a], [b]) => a.localeCompare(b)),
      );
      return bundle;
    });
  return { bundles, conflicts: [...new Set(conflicts)].sort() };
}
