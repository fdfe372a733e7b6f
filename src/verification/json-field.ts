/** The value at a dot path (`status.ready`, `items.0.state`) of a parsed JSON document, or undefined. */
export function fieldAt(document: unknown, path: string): unknown {
  let current: unknown = document;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
