/**
 * Prepared statements for the hot queries (docs/decisions/0044): a query is built by drizzle once
 * per database, with `sql.placeholder` where its values go, and then only run. On postgres.js
 * (`prepare: true`) each pooled connection parses it once under a name of its own and afterwards
 * sends only Bind/Execute; a reconnected connection starts with no statements and prepares again
 * on first use. PGlite runs the same text with its parameters each time.
 */
import { Column, getTableName, is, SQL, sql, Subquery, type Placeholder } from 'drizzle-orm';
import type { DbOrTx } from './client';

/** The placeholders of a statement's values `V`, by name (`p.slotId` is `sql.placeholder('slotId')`). */
export type Placeholders<V> = { readonly [K in keyof V & string]: ReturnType<typeof sql.placeholder<K>> };

/** What drizzle's `.prepare(name)` returns, as far as this module uses it. */
interface DrizzlePrepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * The parts of a drizzle prepared select (both drivers) that map its rows: the selected fields in
 * column order, each with its path in the result object, which joined tables may be null, and the
 * mapper drizzle calls instead of its own when set. Not in drizzle's public types.
 */
interface DrizzleRowMapping {
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** Turns a value from the driver into what drizzle gives for the field (Column, SQL, alias...). */
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
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
        compileRowMapping(statement as unknown as DrizzleRowMapping);
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

/**
 * Gives a prepared select a row mapper equal to drizzle's `mapResultRow` (same objects, same key
 * order, a left-joined table's object null when all its columns are), with the per-field work done
 * here once: drizzle's finds each field's decoder with `is()` checks and walks its path for every
 * value of every row (docs/decisions/0057). Statements without selected fields are left alone.
 */
function compileRowMapping(statement: DrizzleRowMapping): void {
  const { fields, joinsNotNullableMap: joins } = statement;
  if (!fields || statement.customResultMapper) return;
  const columns = fields.map(({ path, field }) => {
    const decoder = decoderOf(field);
    // drizzle's rule: a column of a joined table, one level down, may make its object null.
    const table = joins && is(field, Column) && path.length === 2 ? getTableName(field.table) : undefined;
    return { path, decoder, table };
  });
  const mapRow = (row: unknown[]) => {
    const result: Record<string, unknown> = {};
    let nullify: Record<string, string | false> | undefined;
    for (let i = 0; i < columns.length; i++) {
      const { path, decoder, table } = columns[i]!;
      let node = result;
      for (let k = 0; k < path.length - 1; k++) {
        const chunk = path[k]!;
        if (!(chunk in node)) node[chunk] = {};
        node = node[chunk] as Record<string, unknown>;
      }
      const raw = row[i];
      const value = (node[path[path.length - 1]!] = raw === null ? null : decoder.mapFromDriverValue(raw));
      if (table !== undefined) {
        nullify ??= {};
        const object = path[0]!;
        if (!(object in nullify)) nullify[object] = value === null ? table : false;
        else if (typeof nullify[object] === 'string' && nullify[object] !== table) nullify[object] = false;
      }
    }
    if (nullify) {
      for (const object in nullify) {
        const table = nullify[object];
        if (typeof table === 'string' && !joins![table]) result[object] = null;
      }
    }
    return result;
  };
  statement.customResultMapper = (rows) => rows.map(mapRow);
}

/** The decoder drizzle's `mapResultRow` uses for `field`. */
function decoderOf(field: unknown): Decoder {
  const decoderOfSql = (value: unknown) => (value as { decoder: Decoder }).decoder;
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql(field._.sql);
  return decoderOfSql((field as { sql: unknown }).sql);
}
