/** Narrowing helpers for parsed JSON/YAML, which arrives as `unknown`. */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(value: JsonRecord, key: string): string | undefined {
  const v = ownField(value, key);
  return typeof v === 'string' ? v : undefined;
}

export function recordField(value: JsonRecord, key: string): JsonRecord | undefined {
  const v = ownField(value, key);
  return isRecord(v) ? v : undefined;
}

export function arrayField(value: JsonRecord, key: string): unknown[] | undefined {
  const v = ownField(value, key);
  return Array.isArray(v) ? v : undefined;
}

/** Own-property lookup: a manifest key named `constructor` or `__proto__` must never resolve to Object.prototype. */
export function ownField(value: JsonRecord, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
}

/** Assignment that stores `__proto__` as an own key instead of replacing the prototype (input may carry any key). */
export function setOwn(target: JsonRecord, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
