/** Resource types a grant can target; their rows live in later issues' tables, so ids are checked by shape only. */
export const RESOURCE_TYPES = ['cluster', 'project', 'tenant'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface ResourceRef {
  type: ResourceType;
  /** A project slug, a cluster id or a tenant id: the segment that appears in actions. */
  id: string;
}

/** Same alphabet as one action segment: no dots, so an id can never change the shape of an action. */
export const RESOURCE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

const SEGMENT_TYPES: Readonly<Record<string, ResourceType>> = {
  projects: 'project',
  clusters: 'cluster',
  tenants: 'tenant',
};

/**
 * The resources an action is about, e.g. `projects.web.tenants.t1.rollback` -> project web, tenant t1. Only actions
 * rooted at a resource collection name resources: `org.tenants.read` is about the organization's catalogue.
 */
export function resourceRefsOf(action: string): ResourceRef[] {
  const segments = action.split('.');
  if (segments[0] === undefined || !(segments[0] in SEGMENT_TYPES)) return [];
  const refs: ResourceRef[] = [];
  for (let i = 0; i + 1 < segments.length; i += 1) {
    const type = SEGMENT_TYPES[segments[i] ?? ''];
    const id = segments[i + 1];
    if (type && id && id !== '*' && RESOURCE_ID_PATTERN.test(id)) {
      refs.push({ type, id });
      i += 1;
    }
  }
  return refs;
}
