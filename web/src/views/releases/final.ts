/** Statuses a release or promotion never leaves. */
export const FINAL_STATUSES = new Set(['Blocked', 'Healthy', 'Failed', 'Rejected', 'Cancelled', 'Expired']);
