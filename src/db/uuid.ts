const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one check of a row id's shape, before any query: PostgreSQL answers a malformed uuid with an error, not a miss. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
