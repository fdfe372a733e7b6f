import type { SearchAttributePair } from '@temporalio/common';
import { SEARCH_ATTRIBUTES } from './definitions';
import { withoutAddresses } from './personal-data';

/** Who and where a workflow works for, as ops read it in the Temporal UI (ids and slugs). */
export interface WorkflowLabels {
  organizationId: string;
  projectId?: string | null;
  tenantId?: string | null;
  tenantSlug?: string | null;
  environment?: string | null;
}

/** The slugs of an organization and project (null when gone). */
export type SlugLookup = (
  organizationId: string,
  projectId: string | null,
) => Promise<{ organization: string | null; project: string | null }>;

/** The search attributes of the labels: organization and project by id and by slug, tenant and environment. */
export function labelAttributes(
  labels: WorkflowLabels,
  slugs: { organization: string | null; project: string | null },
): SearchAttributePair[] {
  const pairs: [SearchAttributePair['key'], string | null | undefined][] = [
    [SEARCH_ATTRIBUTES.organizationId, labels.organizationId],
    [SEARCH_ATTRIBUTES.organizationSlug, slugs.organization],
    [SEARCH_ATTRIBUTES.projectId, labels.projectId],
    [SEARCH_ATTRIBUTES.projectSlug, slugs.project],
    [SEARCH_ATTRIBUTES.tenantId, labels.tenantId],
    [SEARCH_ATTRIBUTES.tenantSlug, labels.tenantSlug],
    [SEARCH_ATTRIBUTES.environment, labels.environment],
  ];
  return pairs
    .filter((p): p is [SearchAttributePair['key'], string] => typeof p[1] === 'string' && p[1] !== '')
    .map(([key, value]) => ({ key, value }) as SearchAttributePair);
}

/**
 * The one-line static summary: where, then what, e.g. `acme/shop eu/production: web 1.1.0 -> 1.2.0`.
 */
export function labelledSummary(
  labels: WorkflowLabels,
  slugs: { organization: string | null; project: string | null },
  what: string,
): string {
  const owner = [slugs.organization ?? labels.organizationId, slugs.project].filter(Boolean).join('/');
  const target = [labels.tenantSlug, labels.environment].filter(Boolean).join('/');
  return `${[owner, target].filter(Boolean).join(' ')}: ${what}`;
}

/** What a start shows every Temporal UI reader: its search attributes, summary and details. */
export interface StartDescription {
  typedSearchAttributes?: SearchAttributePair[];
  staticSummary?: string;
  staticDetails?: string;
}

/**
 * The search attributes, summary and details of a start: the labels' (ids and slugs) first, the caller's own after;
 * any e-mail address in them shows as `[address]` (docs/workflows.md, readable in the Temporal UI).
 */
export function startDescription(
  opts: { labels?: WorkflowLabels; searchAttributes?: SearchAttributePair[]; summary?: string; details?: string },
  slugs: { organization: string | null; project: string | null },
): StartDescription {
  const own = opts.searchAttributes ?? [];
  const labelled = opts.labels
    ? labelAttributes(opts.labels, slugs).filter((l) => !own.some((o) => o.key.name === l.key.name))
    : [];
  const attributes = [...labelled, ...own].map((pair) =>
    typeof pair.value === 'string' ? ({ ...pair, value: withoutAddresses(pair.value) } as SearchAttributePair) : pair,
  );
  const summary = opts.labels ? labelledSummary(opts.labels, slugs, opts.summary ?? 'workflow') : opts.summary;
  return {
    typedSearchAttributes: opts.labels || opts.searchAttributes ? attributes : undefined,
    staticSummary: summary === undefined ? undefined : withoutAddresses(summary),
    staticDetails: opts.details === undefined ? undefined : withoutAddresses(opts.details),
  };
}

/** Caches slug lookups for a minute (a slug rename shows on workflows started after it). */
export function cachedSlugs(lookup: SlugLookup, ttlMs = 60_000, max = 1_000): SlugLookup {
  const cache = new Map<string, { at: number; value: Awaited<ReturnType<SlugLookup>> }>();
  return async (organizationId, projectId) => {
    const key = `${organizationId}/${projectId ?? ''}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const value = await lookup(organizationId, projectId);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(key, { at: Date.now(), value });
    return value;
  };
}
