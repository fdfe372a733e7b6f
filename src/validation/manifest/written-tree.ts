import type { ManifestLimits } from './limits';
import { inspectTree } from './safe-tree';

/** Past this depth the value is left to JSON itself (which refuses a cycle); a manifest's limit is far below it. */
const MAX_DEPTH = 1000;

/** Thrown where the walk leaves plain data or reaches a limit: the value then takes the long way, which says why. */
class NotPlain extends Error {}

/** inspectTree's limits, counted as the copy is made (a copy shares no object, so it has no alias to count). */
interface Walk {
  maxDepth: number;
  maxNodes: number;
  nodes: number;
}

function count(walk: Walk): void {
  walk.nodes += 1;
  if (walk.nodes > walk.maxNodes) throw new NotPlain();
}

function copy(value: unknown, depth: number, walk: Walk): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  if (typeof value === 'bigint') throw new NotPlain();
  if (value === null || typeof value !== 'object') return value;
  if (depth >= walk.maxDepth || depth > MAX_DEPTH || 'toJSON' in value) throw new NotPlain();
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) throw new NotPlain();
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      count(walk);
      items[i] = dropped(value[i]) ? null : copy(value[i], depth + 1, walk);
    }
    return items;
  }
  if (prototype !== Object.prototype && prototype !== null) throw new NotPlain();
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (dropped(item)) continue;
    const copied = copy(item, depth + 1, walk);
    // A null entry goes, as inspectTree drops it.
    if (copied === null) continue;
    count(walk);
    out[key] = copied;
  }
  return out;
}

/** What JSON leaves out of an object, and writes as null in an array. */
const dropped = (item: unknown) => item === undefined || typeof item === 'function' || typeof item === 'symbol';

/**
 * Whether `value` is already what JSON reads it back as (plain objects with enumerable string keys only and arrays, no
 * hole, nothing JSON leaves out or writes as null, no null entry, finite numbers but -0), counting its nodes as `copy`
 * does; throws NotPlain where `copy` would.
 */
function unchanged(value: unknown, depth: number, walk: Walk): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value === 'bigint') throw new NotPlain();
  if (value === null || typeof value !== 'object') return true;
  if (depth >= walk.maxDepth || depth > MAX_DEPTH || 'toJSON' in value) throw new NotPlain();
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) throw new NotPlain();
    for (let i = 0; i < value.length; i++) {
      count(walk);
      const item: unknown = value[i];
      if (!(i in value) || dropped(item) || !unchanged(item, depth + 1, walk)) return false;
    }
    return true;
  }
  if (prototype !== Object.prototype) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // A symbol or a property that is not enumerable: JSON leaves it out, a reader of the value might not.
  if (Reflect.ownKeys(record).length !== keys.length) return false;
  for (const key of keys) {
    const item = record[key];
    if (item === null || dropped(item) || !unchanged(item, depth + 1, walk)) return false;
    count(walk);
  }
  return true;
}

const walkOf = (limits: ManifestLimits): Walk => ({ maxDepth: limits.maxDepth, maxNodes: limits.maxNodes, nodes: 1 });

/**
 * The value a manifest this process dumped (`value`) is read back as, without its text: JSON's copy of it
 * (`JSON.parse(JSON.stringify(value))`: undefined, functions and symbols left out of objects, null in arrays; NaN and
 * the infinities null; -0 as 0) as inspectTree leaves it (null entries dropped, depth and nodes within `limits`).
 * A value that is that already (what the generator renders) is answered as it is, checked in one walk without a copy
 * (issue 46: the copy was a third of a generate's validation of 3,000 rendered manifests); the validation that reads
 * it changes nothing. Other plain objects and arrays are copied and checked in one walk; anything else (another
 * prototype, a `toJSON`, a bigint, a cycle) and any tree over a limit goes through JSON itself and inspectTree, with
 * their answer or their error.
 */
export function writtenTree(value: unknown, limits: ManifestLimits): unknown {
  try {
    if (dropped(value)) return undefined;
    if (unchanged(value, 0, walkOf(limits))) return value;
    return copy(value, 0, walkOf(limits));
  } catch (err) {
    if (!(err instanceof NotPlain)) throw err;
    const text = JSON.stringify(value) as string | undefined;
    const parsed = text === undefined ? undefined : (JSON.parse(text) as unknown);
    if (parsed !== null && parsed !== undefined) inspectTree(parsed, limits, { nodes: 0, aliases: 0 });
    return parsed;
  }
}
