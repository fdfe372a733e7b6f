import { Unprocessable } from '../errors';
import { parseYaml, parseYamlDocuments } from '../parse/bounded-parse';
import { KUSTOMIZATION_FILES } from './kustomization-references';

/** A Kubernetes object as rendered (parsed YAML mapping). */
export type KubeObject = Record<string, unknown> & { kind?: unknown; metadata?: Record<string, unknown> };

/** What a workload changes in what its source renders: the image tag of its repository and the replica count. */
export interface RenderOverrides {
  image: { repository: string; tag: string };
  replicas: number;
}

/** Kustomization fields the platform's renderer applies; any other field (patches, components, generators) refuses. */
const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'namePrefix',
  'nameSuffix',
  'commonLabels',
  'commonAnnotations',
  'images',
  'replicas',
]);

/** Kinds whose `spec.replicas` the workload's replica count sets. */
const SCALABLE = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

interface ImageRule {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

const imageName = (image: string) => image.replace(/@.*$/, '').replace(/:[^:/]*$/, '');

function mapContainers(obj: KubeObject, fn: (image: string) => string): void {
  const spec = obj.spec as Record<string, unknown> | undefined;
  const podSpec = ((spec?.template as Record<string, unknown> | undefined)?.spec ?? spec?.jobTemplate) as
    Record<string, unknown> | undefined;
  for (const key of ['containers', 'initContainers']) {
    const list = podSpec?.[key];
    if (!Array.isArray(list)) continue;
    for (const c of list as Record<string, unknown>[]) if (typeof c.image === 'string') c.image = fn(c.image);
  }
}

function applyImageRule(image: string, rule: ImageRule): string {
  if (imageName(image) !== rule.name) return image;
  const name = rule.newName ?? rule.name;
  if (rule.digest) return `${name}@${rule.digest}`;
  const tag = rule.newTag ?? /:([^:/@]+)$/.exec(image.replace(/@.*$/, ''))?.[1];
  return tag ? `${name}:${tag}` : name;
}

/**
 * The workload's overrides on rendered objects: containers running the workload's image repository get its tag, and
 * every Deployment, StatefulSet and ReplicaSet its replica count.
 */
export function applyOverrides(objects: KubeObject[], overrides: RenderOverrides): KubeObject[] {
  const rule = { name: overrides.image.repository, newTag: overrides.image.tag };
  for (const obj of objects) {
    mapContainers(obj, (image) => applyImageRule(image, rule));
    if (typeof obj.kind === 'string' && SCALABLE.has(obj.kind) && obj.spec && typeof obj.spec === 'object') {
      (obj.spec as Record<string, unknown>).replicas = overrides.replicas;
    }
  }
  return objects;
}

/** The YAML documents of a text as objects (empty documents dropped; a non-mapping refuses). */
export function objectsOf(file: string, text: string): KubeObject[] {
  let docs: unknown[];
  try {
    docs = parseYamlDocuments(text, file);
  } catch (err) {
    throw new Unprocessable(`${file} is not YAML: ${(err as Error).message}`);
  }
  return docs
    .filter((d) => d !== null && d !== undefined)
    .map((d) => {
      if (typeof d !== 'object' || Array.isArray(d))
        throw new Unprocessable(`${file} holds a document that is not a mapping`);
      return d as KubeObject;
    });
}

function labelInto(obj: KubeObject, labels: Record<string, string>, withSelectors: boolean): void {
  obj.metadata = { ...obj.metadata, labels: { ...(obj.metadata?.labels as object), ...labels } };
  const spec = obj.spec as Record<string, unknown> | undefined;
  if (!withSelectors || !spec) return;
  if (obj.kind === 'Service') spec.selector = { ...(spec.selector as object), ...labels };
  else if (SCALABLE.has(String(obj.kind)) || obj.kind === 'DaemonSet') {
    const selector = (spec.selector ?? {}) as Record<string, unknown>;
    spec.selector = { ...selector, matchLabels: { ...(selector.matchLabels as object), ...labels } };
    const template = (spec.template ?? {}) as KubeObject;
    labelInto(template, labels, false);
    spec.template = template;
  }
}

/**
 * Renders a kustomize base with the subset of kustomize the platform implements (docs/registry.md): `resources` (files
 * of the base), `namespace`, `namePrefix`, `nameSuffix`, `commonLabels` (selectors included, as kustomize does),
 * `commonAnnotations`, `images` and `replicas`; then the workload's overrides. A kustomization using anything else
 * (patches, components, generators, nested bases) answers 422 rather than rendering something else than kustomize would.
 */
export function renderKustomizeBase(files: Record<string, string>, overrides: RenderOverrides): KubeObject[] {
  const file = KUSTOMIZATION_FILES.find((name) => Object.hasOwn(files, name));
  if (!file) throw new Unprocessable('the kustomize base has no kustomization.yaml');
  const k = (parseYaml(files[file] ?? '', file) ?? {}) as Record<string, unknown>;
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0) {
    throw new Unprocessable(
      `the kustomize base uses ${unsupported.join(', ')}, which the platform's kustomize renderer does not apply ` +
        `(supported: ${[...SUPPORTED].slice(2).join(', ')})`,
    );
  }
  const objects: KubeObject[] = [];
  for (const entry of (k.resources ?? []) as unknown[]) {
    const path = String(entry).replace(/^\.\//, '');
    const text = files[path];
    if (text === undefined) throw new Unprocessable(`resources: ${path} is not a file of the base`);
    objects.push(...objectsOf(path, text));
  }
  const prefix = typeof k.namePrefix === 'string' ? k.namePrefix : '';
  const suffix = typeof k.nameSuffix === 'string' ? k.nameSuffix : '';
  for (const obj of objects) {
    const metadata = { ...obj.metadata };
    if (typeof metadata.name === 'string') metadata.name = `${prefix}${metadata.name}${suffix}`;
    if (typeof k.namespace === 'string') metadata.namespace = k.namespace;
    if (k.commonAnnotations)
      metadata.annotations = { ...(metadata.annotations as object), ...(k.commonAnnotations as object) };
    obj.metadata = metadata;
    if (k.commonLabels) labelInto(obj, k.commonLabels as Record<string, string>, true);
    for (const rule of (k.images ?? []) as ImageRule[]) mapContainers(obj, (image) => applyImageRule(image, rule));
    for (const r of (k.replicas ?? []) as { name: string; count: number }[]) {
      if (obj.metadata.name === `${prefix}${r.name}${suffix}` && SCALABLE.has(String(obj.kind)))
        (obj.spec as Record<string, unknown>).replicas = r.count;
    }
  }
  return applyOverrides(objects, overrides);
}
