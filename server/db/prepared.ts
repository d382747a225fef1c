/**
 * Prepared statements for the hot queries (docs/decisions/0044), through drizzle's own `.prepare()`:
 * a query is built once per database (or transaction), with `sql.placeholder` where its values go,
 * and then only run. On postgres.js each pooled connection parses it once under a name of its own
 * and afterwards sends only Bind/Execute; a reconnected connection starts with no statements and
 * prepares again on first use. PGlite runs the same text with its parameters each time.
 */
import { sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client';

/** The placeholders of a statement's values `V`, by name (`p.slotId` is `sql.placeholder('slotId')`). */
export type Placeholders<V> = { readonly [K in keyof V & string]: ReturnType<typeof sql.placeholder<K>> };

/** What drizzle's `.prepare(name)` returns, as far as this module uses it. */
interface DrizzlePrepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** A drizzle query builder that can be prepared (select, insert, update, delete). */
interface Preparable<R> {
  prepare(name: string): DrizzlePrepared<R>;
}

/**
 * A statement run with `values`, on `db` or inside transaction `db`. Resolves to what the same
 * drizzle query would (mapped rows, or the driver's result without `.returning`).
 */
export type PreparedStatement<V, R> = (db: DbOrTx, values: V) => Promise<R>;

/**
 * Declares statement `name`: `build(db, p)` returns the drizzle query with `p.<value>` placeholders
 * where `V`'s values go (`V` is given explicitly: `preparedStatement<{ id: string }>()(...)`). It is
 * built and `.prepare(name)`d on the first run against each database or transaction (drizzle binds
 * a prepared query to the one it was built on), and reused for later runs on that same one.
 * Rejects as the drizzle query would (a database error, a lost connection).
 *
 * A placeholder in an insert's values is encoded as its column encodes values (a Date for a
 * timestamp column); elsewhere (an update's `set`, a condition) wrap it as `encodedAs(p.x, column)`
 * when the value needs the column's encoding, since a bare placeholder passes its value as it is.
 */
export function preparedStatement<V extends Record<string, unknown>>() {
  return <R>(name: string, build: (db: DbOrTx, p: Placeholders<V>) => Preparable<R>): PreparedStatement<V, R> => {
    const placeholders = new Proxy({} as Placeholders<V>, {
      get: (_target, key) => (typeof key === 'string' ? sql.placeholder(key) : undefined),
    });
    const built = new WeakMap<DbOrTx, DrizzlePrepared<R>>();
    return (db, values) => {
      let statement = built.get(db);
      if (!statement) {
        statement = build(db, placeholders).prepare(name);
        built.set(db, statement);
      }
      return statement.execute(values);
    };
  };
}

/**
 * Placeholder `value` encoded as `column` encodes its values (a Date becomes the timestamp text),
 * for an update's `set` or a condition of a prepared statement.
 */
export function encodedAs(value: Placeholder, column: Column): SQL {
  return sql`${sql.param(value, column)}`;
}
