import type { Knex } from 'knex';
import type { Queryable } from './knex';
import { poolRows, positionalSql, preparedName, type PoolStatement } from './pool-query';

type Param = string | number;

interface Compiled extends PoolStatement {
  /** Each binding in order: a parameter by name, or a constant the builder put there. */
  slots: ({ param: string } | { value: Knex.Value })[];
}

/** Number parameters are marked with values no page size or count takes. */
const NUMBER_MARKER_BASE = 2_000_000_011;

/**
 * Statements compiled once per shape (issue 34 item 5): knex turns a query builder into SQL on every run, which for a
 * listing with joins costs more CPU than the rest of a cached read request together. A statement whose SQL depends
 * only on which options are present (its shape) is built once with a marker in place of each parameter, compiled, and
 * from then on run with the real values where the markers were. A shape whose parameters do not all travel as bindings
 * (a marker folded into the SQL text, dropped, or transformed) is never cached: it is built and run every time.
 */
export function compiledStatements() {
  const shapes = new Map<string, Compiled | false>();
  return {
    async rows<Row, P extends Record<string, Param>>(
      db: Queryable,
      shape: string,
      params: P,
      build: (params: P) => Knex.QueryBuilder,
    ): Promise<Row[]> {
      let compiled = shapes.get(shape);
      if (compiled === undefined) {
        compiled = compile(params, build);
        shapes.set(shape, compiled);
      }
      if (compiled === false) return (await build(params)) as Row[];
      const bindings = compiled.slots.map((slot) => ('param' in slot ? (params[slot.param] ?? null) : slot.value));
      return poolRows<Row>(db, compiled, bindings);
    },
  };
}

function compile<P extends Record<string, Param>>(
  params: P,
  build: (params: P) => Knex.QueryBuilder,
): Compiled | false {
  const markers: Record<string, Param> = {};
  let n = 0;
  for (const [name, value] of Object.entries(params)) {
    markers[name] = typeof value === 'number' ? NUMBER_MARKER_BASE + n++ : `\u0001${name}\u0001`;
  }
  const { sql, bindings } = build(markers as P).toSQL();
  const nameOf = new Map<unknown, string>(Object.entries(markers).map(([name, marker]) => [marker, name]));
  const slots = bindings.map((b) => {
    const param = nameOf.get(b);
    return param === undefined ? { value: b } : { param };
  });
  const used = new Set(slots.flatMap((slot) => ('param' in slot ? [slot.param] : [])));
  const placeholders = sql.match(/\?/g)?.length ?? 0;
  const safe =
    used.size === nameOf.size &&
    !sql.includes('\u0001') &&
    !sql.includes('??') &&
    !sql.includes('\\?') &&
    placeholders === bindings.length;
  if (!safe) return false;
  const pgSql = positionalSql(sql);
  return { sql, pgSql, name: preparedName(pgSql), slots };
}
