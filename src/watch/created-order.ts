import { compileSafePattern } from '../safe-regex';
import type { WatchPolicy } from './watch-policy';

/**
 * The tags whose image creation time some policy orders by (`regex` with `order: created`): only these have their
 * image config read (image-created.ts), however many tags the repository holds.
 */
export function createdOrderTags(policies: readonly WatchPolicy[], tags: readonly string[]): string[] {
  const patterns = policies.flatMap((p) =>
    p.kind === 'regex' && p.order === 'created' ? [compileSafePattern(p.pattern)] : [],
  );
  return patterns.length === 0 ? [] : tags.filter((t) => patterns.some((re) => re.test(t)));
}
