import type { PathSegment } from '../field-path';
import { isRecord, ownField, stringField, type JsonRecord } from '../json';
import { isConfigMapKey } from './k8s-names';
import { invalid, required, violation, type RuleContext } from './rule-context';

/** core.MaxSecretSize, which ValidateConfigMap applies too. */
const MAX_DATA_BYTES = 1024 * 1024;

/** Keys of one data map (IsConfigMapKey), and a rough byte count of its values (base64 counted decoded). */
function checkKeys(data: unknown, field: string, ctx: RuleContext, base64: boolean): number {
  if (!isRecord(data)) return 0;
  let size = 0;
  for (const key in data) {
    if (!Object.prototype.hasOwnProperty.call(data, key)) continue;
    const problems = isConfigMapKey(key);
    if (problems.length > 0) invalid(ctx, [field, key], key, problems);
    const value = data[key];
    if (typeof value === 'string') size += base64 ? Math.floor((value.length * 3) / 4) : value.length;
  }
  return size;
}

function checkOverlap(a: unknown, b: unknown, field: string, other: string, ctx: RuleContext): void {
  if (!isRecord(a) || !isRecord(b)) return;
  for (const key of Object.keys(a)) {
    if (Object.prototype.hasOwnProperty.call(b, key)) {
      invalid(ctx, [field, key], key, [`duplicate of key present in ${other}`]);
    }
  }
}

function checkSize(size: number, ctx: RuleContext): void {
  if (size > MAX_DATA_BYTES) violation(ctx, [], `too long: must have at most ${MAX_DATA_BYTES} bytes`);
}

/** core ValidateConfigMap: keys of data and binaryData, no key in both, 1 MiB in all. */
export function checkConfigMap(object: JsonRecord, ctx: RuleContext): void {
  const data = ownField(object, 'data');
  const binaryData = ownField(object, 'binaryData');
  const size = checkKeys(data, 'data', ctx, false) + checkKeys(binaryData, 'binaryData', ctx, true);
  checkOverlap(data, binaryData, 'data', 'binaryData', ctx);
  checkSize(size, ctx);
}

/** Keys a Secret of a built-in type must carry (core ValidateSecret). */
const REQUIRED_KEYS: Record<string, readonly string[]> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
};

/** core ValidateSecret: keys of data and stringData (merged into data on write), the type's keys, 1 MiB in all. */
export function checkSecret(object: JsonRecord, ctx: RuleContext): void {
  const data = ownField(object, 'data');
  const stringData = ownField(object, 'stringData');
  checkSize(checkKeys(data, 'data', ctx, true) + checkKeys(stringData, 'stringData', ctx, false), ctx);
  const needed = REQUIRED_KEYS[stringField(object, 'type') ?? ''];
  if (!needed) return;
  const has = (key: string): boolean =>
    (isRecord(data) && Object.prototype.hasOwnProperty.call(data, key)) ||
    (isRecord(stringData) && Object.prototype.hasOwnProperty.call(stringData, key));
  for (const key of needed) {
    const path: PathSegment[] = ['data', key];
    if (!has(key)) required(ctx, path, `a Secret of type ${String(object.type)} must have this key`);
  }
}
