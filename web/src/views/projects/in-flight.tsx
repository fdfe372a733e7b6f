import { Link } from 'react-router';
import { StatusBadge } from '../../components/status-badge';
import type { Cell } from './matrix';

/** What is in flight for a cell, each linked to its page: the release, the promotion into it, the rollout wave. */
export function InFlight({ cell }: { cell: Cell }) {
  return (
    <>
      {cell.inFlight && (
        <Link className="tag flight" to={`/releases/${cell.inFlight.id}`}>
          release <StatusBadge status={cell.inFlight.status} />
        </Link>
      )}
      {cell.promotion && (
        <Link className="tag flight" to={`/promotions/${cell.promotion.id}`}>
          promotion from {cell.promotion.sourceEnvironment ?? 'image'} <StatusBadge status={cell.promotion.status} />
        </Link>
      )}
      {cell.rollout && (
        <Link className="tag flight" to={`/rollouts/${cell.rollout.id}`}>
          rollout wave {cell.rollout.wave}/{cell.rollout.waves} <StatusBadge status={cell.rollout.state} />
        </Link>
      )}
    </>
  );
}
