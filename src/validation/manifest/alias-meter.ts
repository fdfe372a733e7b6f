import { ManifestRejected } from '../errors';
import type { ManifestLimits } from './limits';
import type { TreeBudget } from './safe-tree';

/** The part of js-yaml's parser state a listener sees. */
interface ParserState {
  kind: string | null;
  result: unknown;
}

/**
 * Counts every YAML alias of one document as js-yaml reads it, scalars (mapping keys included) as well as
 * mappings and sequences, and what each one expands to in characters. A document whose aliases would
 * make it more than maxExpansionRatio times its own size is refused (ALIAS_LIMIT) while it is being
 * parsed, before anything copies, validates or quotes the expansion; the alias count is shared by all
 * documents of a request (maxAliasCount).
 *
 * An alias is the one node js-yaml closes with a value but no kind (scalars, mappings and sequences all
 * set theirs); an alias of a null expands to nothing and is not seen.
 */
export class AliasMeter {
  private expanded: number;
  private readonly cap: number;
  private readonly sizes = new WeakMap<object, number>();

  constructor(
    inputLength: number,
    private readonly limits: ManifestLimits,
    private readonly budget: TreeBudget,
  ) {
    this.expanded = inputLength;
    this.cap = inputLength * limits.maxExpansionRatio;
  }

  readonly listener = (event: string, state: ParserState): void => {
    if (event !== 'close' || state.kind !== null || state.result === null || state.result === undefined) return;
    this.budget.aliases++;
    if (this.budget.aliases > this.limits.maxAliasCount) {
      throw new ManifestRejected('ALIAS_LIMIT', `manifest uses more than ${this.limits.maxAliasCount} YAML aliases`);
    }
    this.expanded += this.size(state.result);
    if (this.expanded > this.cap) {
      throw new ManifestRejected(
        'ALIAS_LIMIT',
        `YAML aliases expand a document to more than ${this.limits.maxExpansionRatio} times its size`,
      );
    }
  };

  /** Characters of a value written out; a collection is measured once (a cycle counts 0, refused later). */
  private size(value: unknown): number {
    if (typeof value === 'string') return value.length;
    if (value === null || typeof value !== 'object') return 4;
    const known = this.sizes.get(value);
    if (known !== undefined) return known;
    this.sizes.set(value, 0);
    let total = 2;
    if (Array.isArray(value)) for (const item of value) total += this.size(item) + 1;
    else for (const [key, item] of Object.entries(value)) total += key.length + this.size(item) + 2;
    this.sizes.set(value, total);
    return total;
  }
}
