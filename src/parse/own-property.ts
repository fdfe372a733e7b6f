/**
 * The value a lookup table holds under `key` as its own property, else undefined. Every lookup whose key a request
 * or an uploaded document chooses goes through here: `table[key]` with `key` = `constructor`, `__proto__`,
 * `toString` or `hasOwnProperty` reaches Object.prototype and answers a function (issue 42: a 500 for
 * `GET /api/docs/assets/constructor`).
 */
export function ownValue<V>(table: Readonly<Partial<Record<string, V>>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
