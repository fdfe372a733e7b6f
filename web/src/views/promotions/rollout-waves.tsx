import type { paths } from '../../../../client/openapi-types.generated';
import { WaveList } from '../../components/wave-list';

type Preview =
  paths['/api/v2/projects/{slug}/promotion/preview']['post']['responses'][200]['content']['application/json'];

/**
 * The waves a promotion request would follow over the target's rollout plan, in order: each wave's tenants, soak,
 * checks and approval gate, and what it waits for. Without a plan: one promotion of every tenant at once.
 */
export function RolloutWaves({ preview, target }: { preview: Preview | undefined; target: string }) {
  if (!preview) return null;
  const { rollout } = preview;
  if (!rollout) return <p>{target} has no rollout plan: every tenant moves in one promotion.</p>;
  return (
    <>
      <h3>
        Rollout in {rollout.waves.length} waves ({rollout.plan === 'environment' ? `${target}'s plan` : 'given plan'})
      </h3>
      <WaveList waves={rollout.waves} label="Rollout waves" />
    </>
  );
}
