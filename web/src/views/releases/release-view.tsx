import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Button } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import type { Release } from '../../api/models';
import { DecisionForm } from '../../components/decision-form';
import { ErrorNote } from '../../components/form';
import { StatusBadge } from '../../components/status-badge';
import { TimelineList } from '../../components/timeline-list';
import { useAction } from '../../components/use-action';
import { FINAL_STATUSES } from './final';
import { ApprovalFacts, SyncFacts } from './release-progress';
import { mergeTimeline } from './timeline';

/** Polling every second while the release moves: each step shows within a second, without reloading. */
const LIVE_MS = 1000;

function ReleaseActions({ release }: { release: Release }) {
  const path = { params: { path: { id: release.id } } };
  const action = useAction([['release', release.id]], release.status);
  if (FINAL_STATUSES.has(release.status)) return null;
  return (
    <section aria-labelledby="actions" className="actions">
      <h2 id="actions">Actions</h2>
      {release.status === 'PendingApproval' && (
        <DecisionForm
          pending={action.pending}
          approve={(comment) =>
            void action.run(() =>
              ok(api.POST('/api/v2/releases/{id}/approve', { ...path, body: comment ? { comment } : {} })),
            )
          }
          reject={(comment) =>
            void action.run(() => ok(api.POST('/api/v2/releases/{id}/reject', { ...path, body: { comment } })))
          }
        />
      )}
      <div className="row">
        {release.status === 'AwaitingDeploy' && (
          <Button
            className="button primary"
            onPress={() => void action.run(() => ok(api.POST('/api/v2/releases/{id}/deploy', path)))}
          >
            Deploy
          </Button>
        )}
        <Button
          className="button"
          onPress={() => void action.run(() => ok(api.POST('/api/v2/releases/{id}/cancel', { ...path, body: {} })))}
        >
          Cancel release
        </Button>
      </div>
      <ErrorNote error={action.error} />
    </section>
  );
}

export function ReleaseView() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const release = useQuery({
    queryKey: ['release', id],
    queryFn: () => ok(api.GET('/api/v2/releases/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data && FINAL_STATUSES.has(q.state.data.status) ? false : LIVE_MS),
  });
  const final = release.data ? FINAL_STATUSES.has(release.data.status) : false;
  const history = useQuery({
    queryKey: ['release', id, 'history'],
    queryFn: () => ok(api.GET('/api/v2/releases/{id}/history', { params: { path: { id } } })),
    refetchInterval: final ? false : LIVE_MS,
  });
  // The last entries of a release that just ended: read the history once more.
  useEffect(() => {
    if (final) void queryClient.invalidateQueries({ queryKey: ['release', id, 'history'] });
  }, [final, id, queryClient]);
  const r = release.data;
  return (
    <main>
      <ErrorNote error={release.error ? messageOf(release.error) : null} />
      {r && (
        <>
          <p className="crumbs">
            <Link to={`/projects/${r.project}/releases`}>{r.project} releases</Link>
          </p>
          <h1>
            {r.title ?? 'Release'} <StatusBadge status={r.status} />
          </h1>
          <dl className="facts">
            <dt>Target</dt>
            <dd>
              {r.tenant} / {r.environment}
            </dd>
            {r.statusReason && (
              <>
                <dt>Reason</dt>
                <dd>{r.statusReason}</dd>
              </>
            )}
            {r.waitingBehind && (
              <>
                <dt>Waiting behind</dt>
                <dd>
                  <Link to={`/releases/${r.waitingBehind}`}>{r.waitingBehind}</Link>
                </dd>
              </>
            )}
            <ApprovalFacts release={r} />
            <dt>Commit</dt>
            <dd>{r.commitSha ? <code>{r.commitSha}</code> : 'not yet'}</dd>
            <SyncFacts release={r} />
            {r.links.workflow && (
              <>
                <dt>Workflow</dt>
                <dd>
                  <a href={r.links.workflow}>Open in the Temporal UI</a>
                </dd>
              </>
            )}
          </dl>
          {r.validation && r.validation.results.length > 0 && (
            <section aria-labelledby="validation">
              <h2 id="validation">Validation</h2>
              <ul>
                {r.validation.results.map((v, i) => (
                  <li key={i} className={v.severity}>
                    {v.severity}: {v.message} {v.resource && <span className="muted">({v.resource})</span>}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <ReleaseActions release={r} />
          <h2>Timeline</h2>
          <TimelineList items={history.data ? mergeTimeline(history.data.timeline, history.data.audit) : []} />
        </>
      )}
    </main>
  );
}
