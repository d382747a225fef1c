/** Prepared statements for the hot queries (docs/decisions/0044), built once per database or transaction. */
import { sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client';

/** The placeholders of a statement's values `V`, by name (`p.slotId` is `sql.placeholder('slotId')`). */
export type Placeholders<V> = { readonly [K in keyof V & string]: ReturnType<typeof sql.placeholder<K>> };

interface DrizzlePrepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

interface Preparable<R> {
  prepare(name: string): DrizzlePrepared<R>;
}

/** Runs a statement with `values`; resolves to what the same drizzle query would. */
export type PreparedStatement<V, R> = (db: DbOrTx, values: V) => Promise<R>;

/**
 * Declares statement `name`, e.g. `preparedStatement<{ id: string }>()(name, (db, p) => query)`. It is
 * prepared per database or transaction, since drizzle binds a prepared query to the one it was built on.
 * Outside an insert's values a bare placeholder is not encoded for its column: use `encodedAs`.
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

/** Placeholder `value` encoded as `column` encodes values (a Date becomes timestamp text). */
export function encodedAs(value: Placeholder, column: Column): SQL {
  return sql`${sql.param(value, column)}`;
}
