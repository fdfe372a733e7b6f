import type { paths } from '../../../client/openapi-types.generated';

type PromotionPreview =
  paths['/api/v2/projects/{slug}/promotion/preview']['post']['responses'][200]['content']['application/json'];
export type WavePreview = NonNullable<PromotionPreview['rollout']>['waves'][number];

/** A rollout's waves in order, as a preview answers them: each wave's tenants and what it waits for. */
export function WaveList({ waves, label }: { waves: WavePreview[]; label: string }) {
  return (
    <ol aria-label={label} className="stack">
      {waves.map((w) => (
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
  );
}
