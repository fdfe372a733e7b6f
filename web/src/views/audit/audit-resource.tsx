import { Link } from 'react-router';
import type { Item, Project } from '../../api/models';

/** What an audit entry says of the resource it is about. */
type Subject = Pick<
  Item<'audit-log-list'>,
  'resourceType' | 'resourceId' | 'projectId' | 'details' | 'category' | 'createdAt'
>;

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** The words an entry's details name its resource by (a release's title, a project's slug, a member's email...). */
function nameOf(entry: Subject, projects: Project[]): string | null {
  const d = entry.details;
  if (entry.resourceType === 'project') {
    return projects.find((p) => p.id === entry.resourceId)?.slug ?? text(d.project) ?? text(d.slug);
  }
  if (entry.resourceType === 'release' || entry.resourceType === 'promotion') {
    const where = [text(d.tenant), text(d.environment) ?? text(d.targetEnvironment)].filter(Boolean).join('/');
    const title = text(d.title);
    return [title, where].filter(Boolean).join(' · ') || null;
  }
  if (entry.resourceType === 'break_glass_session') return text(d.justification);
  return text(d.name) ?? text(d.slug) ?? text(d.title) ?? text(d.email) ?? text(d.tenant) ?? null;
}

/** Where the UI shows the resource, when it has a page of its own. */
function hrefOf(entry: Subject, projects: Project[]): string | null {
  const id = entry.resourceId;
  if (!id) return null;
  switch (entry.resourceType) {
    case 'release':
      return `/releases/${id}`;
    case 'promotion':
      return `/promotions/${id}`;
    case 'rollout':
      return `/rollouts/${id}`;
    case 'cluster':
      return `/clusters/${id}`;
    case 'project': {
      const slug = projects.find((p) => p.id === id)?.slug;
      return slug ? `/projects/${slug}` : null;
    }
    case 'break_glass_session':
      return `/audit?breakGlassSessionId=${id}`;
    default:
      return null;
  }
}

const HOUR = 3_600_000;

/** A deployment entry's project changes in the hour either side of it (the changes view, docs/deployments.md). */
function changesThen(entry: Subject, projects: Project[]): string | null {
  if (entry.category !== 'deployment' || !entry.projectId) return null;
  const slug = projects.find((p) => p.id === entry.projectId)?.slug;
  if (!slug) return null;
  const at = Date.parse(entry.createdAt);
  const from = new Date(at - HOUR).toISOString();
  const to = new Date(Math.min(Date.now(), at + HOUR)).toISOString();
  return `/projects/${slug}/changes?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
}

/** An audit entry's resource as a row names it: its kind and name (or short id), linked to its page where it has one. */
export function AuditResource({ entry, projects }: { entry: Subject; projects: Project[] }) {
  if (!entry.resourceType) return <>—</>;
  const kind = entry.resourceType.replace(/_/g, ' ');
  const name = nameOf(entry, projects) ?? entry.resourceId?.slice(0, 8) ?? '';
  const href = hrefOf(entry, projects);
  const changes = changesThen(entry, projects);
  return (
    <span className="resource">
      <span className="muted">{kind}</span> {href ? <Link to={href}>{name}</Link> : name}
      {changes && (
        <>
          {' '}
          <Link to={changes} aria-label={`changes then (around ${entry.createdAt})`}>
            changes then
          </Link>
        </>
      )}
    </span>
  );
}
