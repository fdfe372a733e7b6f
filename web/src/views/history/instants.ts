/** Instants as the history views show and take them (UTC, to the second), and the URL's `at`/`from`/`to`. */

/** `2026-11-28T14:05:00Z` as the value of a `datetime-local` field read as UTC: `2026-11-28T14:05:00`. */
export function fieldValue(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19);
}

/** A `datetime-local` field's value (UTC) as an ISO instant; null for an empty or unreadable field. */
export function instantOfField(value: string): string | null {
  if (!value) return null;
  const at = new Date(`${value.length === 16 ? `${value}:00` : value}Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** A short UTC reading of an instant: `2026-11-28 14:05:03 UTC`. */
export function shown(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
