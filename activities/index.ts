import type { Services } from '../src/runtime/services';
import { DOMAIN_ACTIVITIES } from './domain-activities';

/** What the `platform` queue's activities use: the services the composition root built once (each takes its slice). */
export type ActivityDeps = Services;

type Builders = (typeof DOMAIN_ACTIVITIES)[keyof typeof DOMAIN_ACTIVITIES];
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every activity of the `platform` queue by name, typed from the domains that contribute them. */
export type PlatformActivities = Intersection<ReturnType<Builders>>;

/** Activities are built once per worker from injected dependencies: each domain contributes its own. */
export function createActivities(deps: ActivityDeps): PlatformActivities {
  const activities = Object.values(DOMAIN_ACTIVITIES).map((build) => build(deps));
  return Object.assign({}, ...activities) as PlatformActivities;
}
