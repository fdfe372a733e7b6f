/** Statuses a release never leaves. */
export const FINAL_STATUSES = new Set(['Blocked', 'Healthy', 'Failed', 'Rejected', 'Cancelled', 'Expired']);

/** Statuses a promotion never leaves (a Blocked promotion evaluates again until it clears or expires). */
export const PROMOTION_FINAL_STATUSES = new Set(['Healthy', 'Failed', 'Cancelled', 'Expired']);
