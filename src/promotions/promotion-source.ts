import type { ImageChange } from './promotion-plan';
import type { Move } from './promotion-workflow-contract';

/** An image change in words: `image web 2.0.0`. */
export const imageChangeText = (change: ImageChange) => `image ${change.workload} ${change.tag}`;

/**
 * Where a promotion takes its versions from, in words (summaries, commit messages, cause messages): its source
 * environment or, for a wave of an image rollout (which has none), the change it applies (`image web 2.0.0`).
 */
export function promotionSourceText(row: { source_environment: string | null; moves: readonly Move[] }): string {
  if (row.source_environment !== null) return row.source_environment;
  const changes = row.moves.flatMap((m) =>
    m.changes.map((c) => imageChangeText({ workload: c.workload, tag: c.tag ?? '' })),
  );
  return [...new Set(changes)].join(', ');
}
