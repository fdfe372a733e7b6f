import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { api, ok } from '../../api/client';
import type { Rollout } from '../../api/models';
import { ConfirmAction } from '../../components/confirm-action';
import { ErrorNote, Field } from '../../components/form';
import { QueryState } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { MeasurementChart } from './measurement-chart';

type Wave = Rollout['waves'][number];
type Verb = 'pause' | 'resume' | 'abort' | 'skip-soak';

const FINAL = new Set(['Completed', 'Aborted', 'Superseded']);

/** What a wave waits for or how it ended, in words. */
function waveNote(w: Wave): string {
  if (w.state === 'Soaking') return `soaking ${w.soakSeconds}s`;
  if (w.state === 'AwaitingApproval') return `waiting for approval (${String(w.approvalGate)})`;
  if (w.state === 'Verifying') return `verifying: ${w.measurements.length} measured`;
  return w.reason ?? '';
}

/** The verbs a rollout in this status takes (the server refuses the others with 409). */
function verbsOf(r: Rollout): Verb[] {
  if (FINAL.has(r.status)) return [];
  if (r.status === 'Halted' || r.status === 'Paused') return ['resume', 'abort'];
  const soaking = r.waves[r.currentWave]?.state === 'Soaking';
  return soaking ? ['pause', 'skip-soak', 'abort'] : ['pause', 'abort'];
}

function Waves({ rollout }: { rollout: Rollout }) {
  return (
    <ol className="waves" aria-label="Waves">
      {rollout.waves.map((w, i) => (
        <li
          key={w.name}
          data-wave={w.name}
          className={i === rollout.currentWave && !FINAL.has(rollout.status) ? 'current' : ''}
        >
          <h3>
            {i + 1}. {w.name} <StatusBadge status={w.state} />
          </h3>
          <p>
            {w.tenants.join(', ')} <span className="muted">({w.selection})</span>
          </p>
          <p className="muted">
            soak {w.soakSeconds}s{w.approvalGate !== false ? `, approval gate: ${String(w.approvalGate)}` : ''}
            {w.checks.length > 0 ? `, checks: ${w.checks.map((c) => c.name).join(', ')}` : ''}
          </p>
          {waveNote(w) && <p>{waveNote(w)}</p>}
          {w.promotionIds.map((id) => (
            <Link key={id} className="tag flight" to={`/promotions/${id}`}>
              promotion {id.slice(0, 8)}
            </Link>
          ))}
          {w.checks.map((c) => (
            <MeasurementChart key={c.name} check={c.name} measurements={w.measurements} />
          ))}
        </li>
      ))}
    </ol>
  );
}

function Actions({ rollout }: { rollout: Rollout }) {
  const [reason, setReason] = useState('');
  const action = useAction([['rollout', rollout.id]], rollout.status);
  const send = (verb: Verb) =>
    action.run(() =>
      ok(api.POST(`/api/v2/rollouts/{id}/${verb}`, { params: { path: { id: rollout.id } }, body: { reason } })),
    );
  const verbs = verbsOf(rollout);
  const awaiting = rollout.status === 'AwaitingApproval';
  if (verbs.length === 0 && !awaiting) return null;
  const label = (verb: Verb) => (verb === 'skip-soak' ? 'Skip the soak' : `${verb[0]!.toUpperCase()}${verb.slice(1)}`);
  return (
    <section aria-labelledby="actions" className="stack">
      <h2 id="actions">Actions</h2>
      <Field label="Reason (kept in the audit log)" value={reason} onChange={setReason} />
      <div className="toolbar">
        {awaiting && (
          <Button
            className="button"
            isDisabled={action.pending}
            onPress={() =>
              void action.run(() =>
                ok(
                  api.POST('/api/v2/rollouts/{id}/approve', {
                    params: { path: { id: rollout.id } },
                    body: reason ? { comment: reason } : {},
                  }),
                ),
              )
            }
          >
            Approve the wave
          </Button>
        )}
        {verbs
          .filter((v) => v !== 'abort')
          .map((verb) => (
            <Button
              key={verb}
              className="button"
              isDisabled={action.pending || reason.trim() === ''}
              onPress={() => void send(verb)}
            >
              {label(verb)}
            </Button>
          ))}
        {verbs.includes('abort') && reason.trim() !== '' && (
          <ConfirmAction verb="Abort" name={rollout.version} pending={action.pending} onConfirm={() => send('abort')} />
        )}
      </div>
      {verbs.length > 0 && reason.trim() === '' && (
        <p className="muted">Give a reason to pause, resume, skip or abort.</p>
      )}
      <ErrorNote error={action.error} />
    </section>
  );
}

/**
 * One rollout (docs/rollouts.md): its waves in order with each wave's tenants, state, promotions and verification
 * (a chart per check of the measured values), polled while it runs; pause, resume, skip a soak, abort (typed back)
 * and approve a wave's gate, each with the reason the audit log keeps.
 */
export function RolloutView() {
  const { id = '' } = useParams();
  const rollout = useQuery({
    queryKey: ['rollout', id],
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 2000),
    queryFn: () => ok(api.GET('/api/v2/rollouts/{id}', { params: { path: { id } } })),
  });
  return (
    <main>
      <QueryState query={rollout}>
        {(r) => (
          <>
            <h1>
              Rollout {r.sourceEnvironment ?? 'image'} → {r.environment}: {r.version} <StatusBadge status={r.status} />
            </h1>
            <p>
              <Link to={`/projects/${r.project}/rollouts`}>All rollouts of {r.project}</Link>
              {r.statusReason && <span> — {r.statusReason}</span>}
            </p>
            <Actions rollout={r} />
            <Waves rollout={r} />
          </>
        )}
      </QueryState>
    </main>
  );
}
