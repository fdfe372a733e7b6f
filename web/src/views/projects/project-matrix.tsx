import type { ProjectEnvironment, Tenant, Workload } from '../../api/models';
import { StatusBadge } from '../../components/status-badge';
import { InFlight } from './in-flight';
import { cellReader, type Activity, type Cell } from './matrix';

export interface MatrixProps {
  environments: ProjectEnvironment[];
  tenants: Tenant[];
  workloads: Workload[];
  activity: Activity;
}

/** The running version with the controller's sync and health, or what waits to run. */
function Live({ cell }: { cell: Cell }) {
  const live = cell.deployment?.live;
  if (!live) return <span className="muted">{cell.deployment?.desired ? 'not reported yet' : 'not deployed'}</span>;
  return (
    <span className="live">
      live <code>{live.version ?? live.revision?.slice(0, 7)}</code> <StatusBadge status={live.healthStatus} />
      {live.syncStatus !== 'Synced' && <StatusBadge status={live.syncStatus} />}
      {!cell.deployment?.current && <span className="muted"> (behind the last commit)</span>}
    </span>
  );
}

/**
 * Tenants x services as rows, environments as columns: each cell the configured version and the live one (from the
 * deployments matrix) with sync and health, its pin, the freezes in force and the release or promotion in flight.
 */
export function ProjectMatrix(props: MatrixProps) {
  const read = cellReader(props.activity);
  return (
    <table className="matrix" aria-label="Versions by tenant, service and environment">
      <thead>
        <tr>
          <th scope="col">Tenant</th>
          <th scope="col">Service</th>
          {props.environments.map((e) => (
            <th scope="col" key={e.environment}>
              {e.environment} <span className="muted">k8s {e.kubernetesVersion}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.workloads.length === 0 &&
          props.tenants.map((t) => (
            <tr key={t.slug}>
              <th scope="row">{t.name}</th>
              <td colSpan={props.environments.length + 1} className="muted">
                No workloads yet
              </td>
            </tr>
          ))}
        {props.tenants.flatMap((t) =>
          props.workloads.map((w, i) => (
            <tr key={`${t.slug}/${w.name}`}>
              {i === 0 && (
                <th scope="rowgroup" rowSpan={props.workloads.length}>
                  {t.name}
                </th>
              )}
              <th scope="row">{w.name}</th>
              {props.environments.map((e) => {
                const cell = read(w, t.slug, e.environment);
                return (
                  <td key={e.environment} data-cell={`${t.slug}/${w.name}/${e.environment}`}>
                    <code>{cell.tag}</code>
                    <br />
                    <Live cell={cell} />
                    {cell.pin && <span className="tag pin">pinned: {cell.pin.reason}</span>}
                    {cell.freezes.map((f) => (
                      <span key={f.id} className="tag freeze">
                        frozen: {f.name}
                      </span>
                    ))}
                    <InFlight cell={cell} />
                  </td>
                );
              })}
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}
