import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import type { ChangedTarget } from '../../api/models';
import { ErrorNote } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { fieldValue, instantOfField, shown } from './instants';

/** A line of the list: a version change or a health transition of an Application, oldest first. */
interface Line {
  at: string;
  target: string;
  what: string;
  fromTo: string;
  by: string;
}

function linesOf(items: ChangedTarget[]): Line[] {
  return items
    .flatMap((item) => {
      const target = `${item.tenant}/${item.environment}/${item.service}`;
      return [
        ...item.changes.map((c) => ({
          at: c.at,
          target,
          what: c.cause ?? 'commit',
          fromTo: `${c.from ?? '-'} → ${c.to ?? '-'}`,
          by: [c.by.actor, c.by.title].filter(Boolean).join(': '),
        })),
        ...item.health.map((h) => ({
          at: h.at,
          target,
          what: 'health',
          fromTo: `${h.from ?? '-'} → ${h.to ?? '-'}${h.version ? ` (${h.version})` : ''}`,
          by: '',
        })),
      ];
    })
    .sort((a, b) => a.at.localeCompare(b.at) || a.target.localeCompare(b.target));
}

/** What changed per Application between two instants (`?from=&to=`): versions with cause and actor, health. */
export function ChangesView() {
  const { slug = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const from = search.get('from');
  const to = search.get('to');
  // A page is 100 Applications; more are asked for by cursor (`More Applications`).
  const changes = useInfiniteQuery({
    queryKey: ['project', slug, 'changes', from, to],
    enabled: Boolean(from),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined,
    queryFn: ({ pageParam }) =>
      ok(
        api.GET('/api/v2/projects/{slug}/deployments/changes', {
          params: {
            path: { slug },
            query: { from: from!, ...(to ? { to } : {}), limit: '100', ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
  });
  const items = changes.data?.pages.flatMap((p) => p.items) ?? [];
  const set = (name: 'from' | 'to', value: string) => {
    const next = new URLSearchParams(search);
    const at = instantOfField(value);
    if (at) next.set(name, at);
    else next.delete(name);
    setSearch(next);
  };
  const lines = linesOf(items);
  return (
    <main>
      <h1>Changes</h1>
      <ProjectNav slug={slug} />
      <p className="muted">
        Per Application, each version change (with its cause and who made it) and each health transition between two
        instants (UTC; at most 31 days apart).
      </p>
      <label>
        From{' '}
        <input
          type="datetime-local"
          step={1}
          value={from ? fieldValue(from) : ''}
          onChange={(e) => set('from', e.target.value)}
        />
      </label>{' '}
      <label>
        To{' '}
        <input
          type="datetime-local"
          step={1}
          value={to ? fieldValue(to) : ''}
          onChange={(e) => set('to', e.target.value)}
        />
      </label>{' '}
      {from && <Link to={`/projects/${slug}?at=${encodeURIComponent(from)}`}>Matrix at the start</Link>}
      <ErrorNote error={changes.error ? messageOf(changes.error) : null} />
      {from && changes.data && lines.length === 0 && <p>Nothing changed between these instants.</p>}
      {lines.length > 0 && (
        <table className="list" aria-label="Changes">
          <thead>
            <tr>
              <th scope="col">At</th>
              <th scope="col">Application</th>
              <th scope="col">What</th>
              <th scope="col">From → to</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l, i) => (
              <tr key={`${l.at}/${l.target}/${i}`}>
                <td>{shown(l.at)}</td>
                <td>{l.target}</td>
                <td>{l.what}</td>
                <td>{l.fromTo}</td>
                <td>{l.by}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {changes.hasNextPage && (
        <Button className="button" onPress={() => void changes.fetchNextPage()}>
          More Applications
        </Button>
      )}
      {items.some((i) => i.truncated) && <p>More changes than listed: pick a shorter window.</p>}
    </main>
  );
}
