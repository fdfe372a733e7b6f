import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import type { ReleaseSummary as Release, VersionChange } from '../../api/models';
import { useSession } from '../../api/session';
import { ErrorNote } from '../../components/form';
import { DowngradeWarning, VersionChanges } from '../../components/version-changes';

interface Waiting {
  kind: 'release' | 'promotion';
  id: string;
  project: string;
  title: string;
  requestedBy: string | undefined;
  /** Current → proposed per tenant and service. */
  versions?: VersionChange[];
  /** What a release sets besides versions (replicas, variables), or all it sets when its versions were not recorded. */
  changes?: string;
}

/**
 * A release's versions current → proposed (as a promotion's); what else it sets (replicas, variables) in words, or
 * everything it sets for a release recorded before its versions were.
 */
function releaseChanges(r: Release): Pick<Waiting, 'versions' | 'changes'> {
  const versions = r.versions ?? [];
  const moved = new Set(versions.map((v) => v.workload));
  const other = (r.changes ?? []).filter((c) => !moved.has(c.workload) || c.replicas !== undefined || c.variables);
  const words = other
    .map((c) => {
      const parts = [
        !moved.has(c.workload) && c.tag ? `→ ${c.tag}` : '',
        c.replicas !== undefined ? `${c.replicas} replicas` : '',
        c.variables ? `variables ${Object.keys(c.variables).join(', ')}` : '',
      ].filter(Boolean);
      return parts.length ? `${c.workload} ${parts.join(', ')}` : '';
    })
    .filter(Boolean)
    .join('; ');
  return { ...(versions.length ? { versions } : {}), ...(words ? { changes: words } : {}) };
}

/**
 * Everything waiting for the signed-in user's decision across the organization's projects: releases pending approval
 * and promotions blocked on approvals, less what the user requested or already decided.
 */
async function waitingFor(email: string): Promise<Waiting[]> {
  const projects = await ok(api.GET('/api/v2/projects', { params: { query: { limit: '100' } } }));
  const perProject = await Promise.all(
    projects.items.map(async (p) => {
      const path = { slug: p.slug };
      const [releases, promotions] = await Promise.all([
        ok(api.GET('/api/v2/projects/{slug}/releases', { params: { path, query: { status: 'PendingApproval' } } })),
        ok(api.GET('/api/v2/projects/{slug}/promotions', { params: { path, query: { status: 'Blocked' } } })),
      ]);
      return [
        ...releases.items
          .filter((r) => r.createdBy !== email)
          .map((r) => ({
            kind: 'release' as const,
            id: r.id,
            project: p.slug,
            title: `${r.title ?? 'Release'} → ${r.tenant}/${r.environment}`,
            requestedBy: r.createdBy,
            ...releaseChanges(r),
          })),
        ...promotions.items
          .filter((m) => m.createdBy !== email && (m.causes ?? []).some((c) => c.cause === 'approvals'))
          .map((m) => ({
            kind: 'promotion' as const,
            id: m.id,
            project: p.slug,
            title: `Promotion ${m.sourceEnvironment ?? 'image'} → ${m.targetEnvironment}`,
            requestedBy: m.createdBy,
            versions: m.versions ?? [],
          })),
      ];
    }),
  );
  return perProject.flat();
}

export function ApprovalsView() {
  const session = useSession();
  const email = session.me?.user.email ?? '';
  const inbox = useQuery({
    queryKey: ['approvals', email],
    enabled: email !== '',
    refetchInterval: 5000,
    queryFn: () => waitingFor(email),
  });
  return (
    <main>
      <h1>Approvals</h1>
      <p className="muted">Releases and promotions waiting for your decision, in every project.</p>
      <ErrorNote error={inbox.error ? messageOf(inbox.error) : null} />
      {inbox.data?.length === 0 && <p>Nothing is waiting for you.</p>}
      <ul className="cards">
        {inbox.data?.map((w) => (
          <li key={w.id} className="card">
            <Link to={`/${w.kind === 'release' ? 'releases' : 'promotions'}/${w.id}`}>{w.title}</Link>
            <span className="muted">
              {' '}
              {w.project} · requested by {w.requestedBy ?? 'someone'}
            </span>
            {w.changes && <p>Sets {w.changes}</p>}
            {w.versions && (
              <>
                <DowngradeWarning versions={w.versions} />
                <VersionChanges versions={w.versions} label={`Versions of ${w.title} (now → after)`} />
              </>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}
