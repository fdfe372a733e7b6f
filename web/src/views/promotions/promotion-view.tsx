import { useQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import { DecisionForm } from '../../components/decision-form';
import { ErrorNote } from '../../components/form';
import { StatusBadge } from '../../components/status-badge';
import { TimelineList } from '../../components/timeline-list';
import { useAction } from '../../components/use-action';
import { DowngradeWarning, VersionChanges } from '../../components/version-changes';
import { PROMOTION_FINAL_STATUSES as FINAL_STATUSES } from '../releases/final';
import { mergeTimeline } from '../releases/timeline';
import { CLEARS } from './causes';

/** One promotion: what moves, every Blocked cause with how it clears, approvals, approve and cancel, the timeline. */
export function PromotionView() {
  const { id = '' } = useParams();
  const path = { params: { path: { id } } };
  const promotion = useQuery({
    queryKey: ['promotion', id],
    queryFn: () => ok(api.GET('/api/v2/promotions/{id}', path)),
    refetchInterval: (q) => (q.state.data && FINAL_STATUSES.has(q.state.data.status) ? false : 1000),
  });
  const history = useQuery({
    queryKey: ['promotion', id, 'history'],
    queryFn: () => ok(api.GET('/api/v2/promotions/{id}/history', path)),
    refetchInterval: 2000,
  });
  const p = promotion.data;
  const action = useAction([['promotion', id]], p?.status);
  const open = p && !FINAL_STATUSES.has(p.status) && !p.commitSha;
  return (
    <main>
      <ErrorNote error={promotion.error ? messageOf(promotion.error) : null} />
      {p && (
        <>
          <p className="crumbs">
            <Link to={`/projects/${p.project}/promotions`}>{p.project} promotions</Link>
          </p>
          <h1>
            Promotion {p.sourceEnvironment ?? 'image'} → {p.targetEnvironment} <StatusBadge status={p.status} />
          </h1>
          {p.statusReason && <p>{p.statusReason}</p>}
          {(p.causes ?? []).length > 0 && (
            <section aria-labelledby="causes">
              <h2 id="causes">Why it is blocked</h2>
              <ul className="causes">
                {p.causes!.map((c) => (
                  <li key={c.cause}>
                    <strong>{c.cause}</strong>: {c.message}
                    <br />
                    <span className="muted">{CLEARS[c.cause] ?? ''}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <h2>What moves (now → after)</h2>
          <DowngradeWarning versions={p.versions ?? []} />
          {p.versions ? (
            <VersionChanges versions={p.versions} label="What moves" />
          ) : (
            <ul aria-label="What moves">
              {p.moves.map((m) =>
                m.changes.map((c) => (
                  <li key={`${m.tenant}/${c.workload}`}>
                    {m.tenant} / {c.workload} → <code>{c.tag}</code>
                  </li>
                )),
              )}
            </ul>
          )}
          {p.approvals && (
            <p>
              Approvals: {p.approvals.received.map((a) => a.actor).join(', ') || 'none yet'}
              {p.approvals.required.map((r) => ` · policy “${r.name}” requires ${r.requiredApprovals}`)}
            </p>
          )}
          {p.commitSha && (
            <p>
              Commit <code>{p.commitSha}</code>
            </p>
          )}
          {open && (
            <section aria-labelledby="actions" className="actions">
              <h2 id="actions">Actions</h2>
              <DecisionForm
                pending={action.pending}
                approve={(comment) =>
                  void action.run(() =>
                    ok(api.POST('/api/v2/promotions/{id}/approve', { ...path, body: comment ? { comment } : {} })),
                  )
                }
              />
              <Button
                className="button"
                onPress={() =>
                  void action.run(() => ok(api.POST('/api/v2/promotions/{id}/cancel', { ...path, body: {} })))
                }
              >
                Cancel promotion
              </Button>
              <ErrorNote error={action.error} />
            </section>
          )}
          <h2>Timeline</h2>
          <TimelineList items={history.data ? mergeTimeline(history.data.timeline, history.data.audit) : []} />
        </>
      )}
    </main>
  );
}
