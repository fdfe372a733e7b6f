import type { ApiClient } from './api-client';
import { CliError, EXIT } from './api-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every item of a paged listing, page after page (at most `maxPages` pages); `page` asks for the one at `cursor`. */
export async function allPages<I>(
  page: (cursor: string | undefined) => Promise<{ items: I[]; nextCursor: string | null }>,
  maxPages = 50,
): Promise<I[]> {
  const items: I[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < maxPages; n += 1) {
    const answer = await page(cursor);
    items.push(...answer.items);
    if (!answer.nextCursor) break;
    cursor = answer.nextCursor;
  }
  return items;
}

/** A project tenant's id from its slug (an id is taken as it is), with the project's tenants named when unknown. */
export async function tenantId(api: ApiClient, project: string, tenant: string): Promise<string> {
  if (UUID.test(tenant)) return tenant;
  const tenants = await allPages((cursor) =>
    api.get('/api/v2/projects/{slug}/tenants', { path: { slug: project }, query: { limit: 100, cursor } }),
  );
  const found = tenants.find((t) => t.slug === tenant);
  if (found) return found.id;
  const known = tenants.map((t) => t.slug).join(', ') || 'none';
  throw new CliError(`project ${project} has no tenant "${tenant}" (tenants: ${known})`, EXIT.usage);
}

/** Path segment encoding for user-given names. */
export function enc(value: string): string {
  return encodeURIComponent(value);
}

/** `a,b,c` to a list (empty entries dropped). */
export function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
}
