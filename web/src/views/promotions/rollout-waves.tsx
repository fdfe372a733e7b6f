import type { paths } from '../../../../client/openapi-types.generated';

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
      <ol aria-label="Rollout waves" className="stack">
        {rollout.waves.map((w) => (
          <li key={w.name}>
            <strong>{w.name}</strong> ({w.selection}): {w.tenants.join(', ') || 'no tenant'}
            <ul aria-label={`${w.name} waits for`}>
              {w.waitsFor.length === 0 ? <li>nothing: it starts at once</li> : null}
              {w.waitsFor.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </>
  );
}
