import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../components/status-badge';
import { InFlight } from './in-flight';
import { cellReader, type Cell } from './matrix';
import type { MatrixProps } from './project-matrix';

/** The marks of one card: pin, freezes in force, the release, promotion or rollout wave in flight. */
function Marks({ cell }: { cell: Cell }) {
  return (
    <>
      {cell.pin && <span className="tag pin">pinned</span>}
      {cell.freezes.length > 0 && <span className="tag freeze">frozen</span>}
      <InFlight cell={cell} />
    </>
  );
}

/**
 * The project's pipeline for one service, the view people look at rather than read (issue 47): environments in
 * promotion order left to right, each tenant a card with the version and the controller's health, pins, freezes and
 * what is in flight (release, promotion, rollout wave) marked. Pointing at (or focusing) a card highlights that
 * version wherever it is configured: its path through the environments. Between two environments, compare and promote links (not for a past instant).
 * Same data and time control as the matrix below it.
 */
export function PipelinePicture(props: MatrixProps & { slug: string }) {
  const read = cellReader(props.activity);
  const [service, setService] = useState(props.workloads[0]?.name ?? '');
  const [version, setVersion] = useState<string | null>(null);
  const workload = props.workloads.find((w) => w.name === service) ?? props.workloads[0];
  if (!workload) return null;
  const environments = [...props.environments].sort((a, b) => a.position - b.position);
  const past = Boolean(props.activity.at);
  return (
    <figure className="pipeline" aria-label={`Pipeline of ${workload.name}`}>
      {props.workloads.length > 1 && (
        <label>
          Service{' '}
          <select value={workload.name} onChange={(e) => setService(e.target.value)}>
            {props.workloads.map((w) => (
              <option key={w.name} value={w.name}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <ol className="stages">
        {environments.map((e, i) => {
          const before = environments[i - 1]?.environment;
          const query = `from=${encodeURIComponent(before ?? '')}&to=${encodeURIComponent(e.environment)}`;
          return (
            <Fragment key={e.environment}>
              {before && (
                <li className="hop" aria-label={`${before} to ${e.environment}`}>
                  <span aria-hidden="true">→</span>
                  {!past && (
                    <>
                      <Link to={`/projects/${props.slug}/compare?${query}`}>Compare</Link>
                      <Link
                        to={`/projects/${props.slug}/promotions?source=${encodeURIComponent(before)}&target=${encodeURIComponent(e.environment)}&service=${encodeURIComponent(workload.name)}`}
                      >
                        Promote
                      </Link>
                    </>
                  )}
                </li>
              )}
              <li className="stage">
                <h3>{e.environment}</h3>
                <ul aria-label={`${e.environment} tenants`}>
                  {props.tenants.map((t) => {
                    const cell = read(workload, t.slug, e.environment);
                    const live = cell.deployment?.live;
                    const same = version !== null && cell.tag === version;
                    return (
                      <li
                        key={t.slug}
                        className={same ? 'card same-version' : 'card'}
                        data-card={`${t.slug}/${e.environment}`}
                        tabIndex={0}
                        aria-label={`${t.name} in ${e.environment}: ${cell.tag}`}
                        onMouseEnter={() => setVersion(cell.tag)}
                        onMouseLeave={() => setVersion(null)}
                        onFocus={() => setVersion(cell.tag)}
                        onBlur={() => setVersion(null)}
                      >
                        <span className="tenant">{t.name}</span> <code>{cell.tag}</code>{' '}
                        {live ? (
                          <StatusBadge status={live.healthStatus} />
                        ) : (
                          <span className="muted">{cell.deployment?.desired ? 'not reported' : 'not deployed'}</span>
                        )}
                        {live && live.version !== null && live.version !== cell.tag && (
                          <span className="muted"> runs {live.version}</span>
                        )}
                        <Marks cell={cell} />
                      </li>
                    );
                  })}
                </ul>
              </li>
            </Fragment>
          );
        })}
      </ol>
    </figure>
  );
}
