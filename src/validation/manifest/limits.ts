/** Bounds on one validation request; every one of them is enforced before any resource is validated. */
export interface ManifestLimits {
  /** UTF-8 bytes of the YAML text (ManifestRejected 413 beyond). */
  maxBytes: number;
  /** YAML documents, empty ones included (`---` x 10,000 is refused before parsing). */
  maxDocuments: number;
  /** Resources after expanding `kind: List` items. */
  maxResources: number;
  /** Nesting of mappings and sequences in one document. */
  maxDepth: number;
  /** Values in all documents together, counting each alias expansion in full. */
  maxNodes: number;
  /** YAML aliases in all documents together, of scalars as well as collections; 0 forbids aliases. */
  maxAliasCount: number;
  /** How many times its own size one document may grow to once its aliases are expanded. */
  maxExpansionRatio: number;
  /** Results a response lists (one more `info` result says how many were cut; the summary counts all). */
  maxResults: number;
  /** Characters of a result's message, path and resource (they quote names and keys of the input). */
  maxTextLength: number;
}

export const DEFAULT_LIMITS: Readonly<ManifestLimits> = {
  maxBytes: 2 * 1024 * 1024,
  maxDocuments: 1000,
  maxResources: 1000,
  maxDepth: 100,
  maxNodes: 1_000_000,
  maxAliasCount: 10,
  maxExpansionRatio: 10,
  maxResults: 1000,
  maxTextLength: 1024,
};

export function resolveLimits(...overrides: (Partial<ManifestLimits> | undefined)[]): ManifestLimits {
  const limits: ManifestLimits = { ...DEFAULT_LIMITS };
  for (const override of overrides) {
    if (!override) continue;
    for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ManifestLimits)[]) {
      const value = override[key];
      if (value !== undefined) {
        if (!Number.isInteger(value) || value < 0) throw new Error(`limit ${key} must be a non-negative integer`);
        limits[key] = value;
      }
    }
  }
  return limits;
}
