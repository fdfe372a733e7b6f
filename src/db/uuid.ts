/** The shape of a row id (lower-case hex); routes that take ids in their canonical form match it case-sensitively. */
export const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const UUID = new RegExp(`^${UUID_PATTERN}$`, 'i');

/** The one check of a row id's shape, before any query: PostgreSQL answers a malformed uuid with an error, not a miss. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
