import { Link } from 'react-router';
import type { Freeze, Pin, ProjectEnvironment, Release, Tenant, Workload } from '../../api/models';
import { StatusBadge } from '../../components/status-badge';
import { cellReader } from './matrix';

export interface MatrixProps {
  environments: ProjectEnvironment[];
  tenants: Tenant[];
  workloads: Workload[];
  pins: Pin[];
  freezes: Freeze[];
  releases: Release[];
}

/**
 * Tenants x services as rows, environments as columns: each cell the desired version, its pin, the freezes in force
 * and the release in flight. Live versions come with the deployments matrix; until then these are desired versions.
 */
export function ProjectMatrix(props: MatrixProps) {
  const read = cellReader(props.pins, props.freezes, props.releases);
  return (
    <table className="matrix" aria-label="Desired versions by tenant, service and environment">
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
                    {cell.pin && <span className="tag pin">pinned: {cell.pin.reason}</span>}
                    {cell.freezes.map((f) => (
                      <span key={f.id} className="tag freeze">
                        frozen: {f.name}
                      </span>
                    ))}
                    {cell.inFlight && (
                      <Link className="tag flight" to={`/releases/${cell.inFlight.id}`}>
                        release <StatusBadge status={cell.inFlight.status} />
                      </Link>
                    )}
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
