/**
 * Prepared statements for the hot queries (docs/decisions/0044): a query is built by drizzle once
 * per database, with `sql.placeholder` where its values go, and then only run. On postgres.js
 * (`prepare: true`) each pooled connection parses it once under a name of its own and afterwards
 * sends only Bind/Execute; a reconnected connection starts with no statements and prepares again
 * on first use. PGlite runs the same text with its parameters each time.
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
 * The driver session behind a drizzle database or transaction. Not in drizzle's public types: both
 * drivers' sessions keep their connection as `client` (the pool or PGlite instance for the
 * database, the transaction's own connection for a transaction) and share `dialect` between a
 * database and all its transactions.
 */
interface DriverSession {
  client: unknown;
  dialect: object;
}

const sessionOf = (db: DbOrTx) => db._.session as unknown as DriverSession;

/**
 * A statement run with `values`, on `db` or inside transaction `db`. Resolves to what the same
 * drizzle query would (mapped rows, or the driver's result without `.returning`).
 */
export type PreparedStatement<V, R> = (db: DbOrTx, values: V) => Promise<R>;

/**
 * Declares statement `name`: `build(db, p)` returns the drizzle query with `p.<value>` placeholders
 * where `V`'s values go (`V` is given explicitly: `preparedStatement<{ id: string }>()(...)`). It is
 * built on the first run against each drizzle database (tests open many) and reused for that
 * database and every transaction on it, bound to the connection of the `db` it is run on.
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
    const built = new WeakMap<object, DrizzlePrepared<R>>();
    return (db, values) => {
      const session = sessionOf(db);
      let statement = built.get(session.dialect);
      if (!statement) {
        statement = build(db, placeholders).prepare(name);
        built.set(session.dialect, statement);
      }
      // The statement was built on some connection of this database; run it on `db`'s own (a
      // transaction's statements must run on the transaction's connection).
      const bound = Object.create(statement) as DrizzlePrepared<R> & { client: unknown };
      bound.client = session.client;
      return bound.execute(values);
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
