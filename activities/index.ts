import { MODULES } from '../src/runtime/modules';
import type { Services } from '../src/runtime/services';

/** What the `platform` queue's activities use: the services the composition root built once (each takes its slice). */
export type ActivityDeps = Services;

type WithActivities = Extract<(typeof MODULES)[number], { activities: unknown }>;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every activity of the `platform` queue by name, typed from the modules that contribute them. */
export type PlatformActivities = Intersection<ReturnType<WithActivities['activities']>>;

/** Activities are built once per worker from injected dependencies: each domain module contributes its own. */
export function createActivities(deps: ActivityDeps): PlatformActivities {
  const activities = MODULES.map((module) => ('activities' in module ? module.activities(deps) : {}));
  return Object.assign({}, ...activities) as PlatformActivities;
}
