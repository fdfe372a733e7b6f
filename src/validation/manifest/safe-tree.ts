import { ManifestRejected } from '../errors';
import type { ManifestLimits } from './limits';

/** Counters shared by all documents of one request. */
export interface TreeBudget {
  nodes: number;
  aliases: number;
}

interface Extent {
  nodes: number;
  height: number;
}

/**
 * Walks one parsed document before anything else reads it, in place:
 * - drops mapping entries whose value is null, as the API server does (`args:` with nothing after it);
 * - enforces the depth limit on the result, whatever the parser allowed;
 * - finds aliases: the parser returns an aliased mapping or sequence as the same object, so a second
 *   sighting is an alias. Each one counts against maxAliasCount and its whole expansion against maxNodes
 *   and maxDepth, which defuses "billion laughs" before ajv or JSON.stringify would expand it; an alias
 *   inside its own anchor (a cycle) is refused outright.
 */
export function inspectTree(root: unknown, limits: ManifestLimits, budget: TreeBudget): void {
  const extents = new Map<object, Extent>();
  const ancestors = new Set<object>();

  const count = (n: number): void => {
    budget.nodes += n;
    if (budget.nodes > limits.maxNodes) {
      throw new ManifestRejected('TOO_MANY_NODES', `manifest has more than ${limits.maxNodes} values`);
    }
  };
  const tooDeep = (): ManifestRejected =>
    new ManifestRejected('TOO_DEEP', `manifest nests deeper than ${limits.maxDepth} levels`);

  const visit = (value: unknown, depth: number): Extent => {
    count(1);
    if (value === null || typeof value !== 'object') return { nodes: 1, height: 0 };
    if (depth >= limits.maxDepth) throw tooDeep();
    const seen = extents.get(value);
    if (seen) {
      budget.aliases++;
      if (budget.aliases > limits.maxAliasCount) {
        throw new ManifestRejected('ALIAS_LIMIT', `manifest uses more than ${limits.maxAliasCount} YAML aliases`);
      }
      if (depth + seen.height >= limits.maxDepth) throw tooDeep();
      count(seen.nodes - 1);
      return seen;
    }
    if (ancestors.has(value)) throw new ManifestRejected('ALIAS_LIMIT', 'manifest has a recursive YAML alias');
    ancestors.add(value);
    const extent: Extent = { nodes: 1, height: 0 };
    const child = (item: unknown): void => {
      const sub = visit(item, depth + 1);
      extent.nodes += sub.nodes;
      extent.height = Math.max(extent.height, sub.height + 1);
    };
    if (Array.isArray(value)) {
      for (const item of value) child(item);
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (record[key] === null) delete record[key];
        else child(record[key]);
      }
    }
    ancestors.delete(value);
    extents.set(value, extent);
    return extent;
  };

  visit(root, 0);
}
