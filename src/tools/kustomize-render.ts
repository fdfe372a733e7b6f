import { Unprocessable } from '../errors';
import { parseYamlDocuments } from '../parse/bounded-parse';

/** A Kubernetes object as rendered (parsed YAML mapping). */
export type KubeObject = Record<string, unknown> & { kind?: unknown; metadata?: Record<string, unknown> };

/** What a workload changes in what its source renders: the image tag of its repository and the replica count. */
export interface RenderOverrides {
  image: { repository: string; tag: string };
  replicas: number;
}

/** The values a chart renders a target with: the workload's, with its image and replica count for that target. */
export function chartValues(values: Record<string, unknown>, overrides: RenderOverrides): Record<string, unknown> {
  return { ...values, image: { ...(values.image as object), ...overrides.image }, replicaCount: overrides.replicas };
}

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
