import { isRecord } from './json';

export type PathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `['spec', 'containers', 0, 'image']` -> `spec.containers[0].image`; odd keys as `metadata.labels["app.kubernetes.io/name"]`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * Segments of an ajv instancePath (a JSON pointer), with array indexes told from numeric map keys by
 * looking at the data itself (`data: {5: x}` has a key "5", `containers/0` an index).
 */
export function pointerToSegments(pointer: string, data: unknown): PathSegment[] {
  if (pointer === '') return [];
  const segments: PathSegment[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const index = Number(key);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(key);
      node = isRecord(node) && Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
    }
  }
  return segments;
}

/** Reads the value at a path, own properties only. */
export function valueAt(data: unknown, segments: readonly PathSegment[]): unknown {
  let node = data;
  for (const segment of segments) {
    if (typeof segment === 'number') node = Array.isArray(node) ? node[segment] : undefined;
    else node = isRecord(node) && Object.prototype.hasOwnProperty.call(node, segment) ? node[segment] : undefined;
  }
  return node;
}
