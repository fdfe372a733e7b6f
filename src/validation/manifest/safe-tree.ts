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

/** Marks a collection whose walk has started and not finished: meeting it again is a cycle. */
const IN_PROGRESS: Extent = { nodes: -1, height: -1 };

class TreeInspector {
  private readonly extents = new Map<object, Extent>();

  constructor(
    private readonly limits: ManifestLimits,
    private readonly budget: TreeBudget,
  ) {}

  visit(value: unknown, depth: number): Extent {
    this.count(1);
    if (value === null || typeof value !== 'object') return SCALAR;
    if (depth >= this.limits.maxDepth) throw this.tooDeep();
    const seen = this.extents.get(value);
    if (seen) return this.alias(seen, depth);
    this.extents.set(value, IN_PROGRESS);
    const extent: Extent = { nodes: 1, height: 0 };
    if (Array.isArray(value)) {
      for (const item of value) this.add(extent, this.visit(item, depth + 1));
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (record[key] === null) delete record[key];
        else this.add(extent, this.visit(record[key], depth + 1));
      }
    }
    this.extents.set(value, extent);
    return extent;
  }

  private add(extent: Extent, child: Extent): void {
    extent.nodes += child.nodes;
    if (child.height + 1 > extent.height) extent.height = child.height + 1;
  }

  private alias(seen: Extent, depth: number): Extent {
    if (seen === IN_PROGRESS) throw new ManifestRejected('ALIAS_LIMIT', 'manifest has a recursive YAML alias');
    if (depth + seen.height >= this.limits.maxDepth) throw this.tooDeep();
    this.count(seen.nodes - 1);
    return seen;
  }

  private count(n: number): void {
    this.budget.nodes += n;
    if (this.budget.nodes > this.limits.maxNodes) {
      throw new ManifestRejected('TOO_MANY_NODES', `manifest has more than ${this.limits.maxNodes} values`);
    }
  }

  private tooDeep(): ManifestRejected {
    return new ManifestRejected('TOO_DEEP', `manifest nests deeper than ${this.limits.maxDepth} levels`);
  }
}

const SCALAR: Extent = { nodes: 1, height: 0 };

/**
 * Walks one parsed document before anything else reads it, in place:
 * - drops mapping entries whose value is null, as the API server does (`args:` with nothing after it);
 * - enforces the depth limit on the result, whatever the parser allowed;
 * - finds aliases: the parser returns an aliased mapping or sequence as the same object, so a second
 *   sighting is an alias (counted by AliasMeter while parsing). Its whole expansion counts against maxNodes
 *   and maxDepth, which defuses "billion laughs" before ajv or JSON.stringify would expand it; an alias
 *   inside its own anchor (a cycle) is refused outright.
 */
export function inspectTree(root: unknown, limits: ManifestLimits, budget: TreeBudget): void {
  new TreeInspector(limits, budget).visit(root, 0);
}
