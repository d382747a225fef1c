/** PostgreSQL (postgres.js) or embedded PGlite behind one drizzle API (`Db`) and LISTEN/NOTIFY pair. */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { projectPath } from '../core/paths';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** The drizzle database, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A transaction handle; services accept `Db | Tx` where they can run inside a caller's transaction. */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

/** drizzle-kit's SQL migrations. */
export const migrationsFolder = projectPath('drizzle');

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Applies pending migrations from drizzle/ (serialised across processes on PostgreSQL). */
  migrate(): Promise<void>;
  /**
   * Subscribes to a NOTIFY channel; resolves to an unsubscribe function once listening. `onRelisten`
   * runs after each reconnect: notifications in between are lost.
   */
  listen(channel: string, onPayload: (payload: string) => void, onRelisten?: () => void): Promise<() => Promise<void>>;
  /** Sends NOTIFY on `channel`; call after the transaction that caused it has committed. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; when absent PGlite is used. */
  url?: string;
  /** PGlite data folder; absent: in-memory PGlite (tests). */
  pgliteDir?: string;
  /** postgres.js pool size. */
  max?: number;
}

const MIGRATION_LOCK_KEY = 7_240_511;

/** Opens the database without migrating it (call `migrate()`). */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.max ?? 10);
  return openPglite(options.pgliteDir);
}

/** Names the app's backends in pg_stat_activity. */
export const APPLICATION_NAME = 'lastslot';

/**
 * postgres.js (patched for dropped connections, docs/decisions/0027). Reconnect backoff is capped at
 * 0.5 s, not the default 20 s, so the service is back promptly after a database restart or failover.
 */
const postgresOptions = {
  onnotice: () => {},
  connect_timeout: 10,
  backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 0.5),
  connection: { application_name: APPLICATION_NAME },
} as const;

function openPostgres(url: string, max: number): Database {
  const client = postgres(url, { ...postgresOptions, max });
  const db = drizzlePostgres(client, { schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      // One connection holds an advisory lock so two processes starting together do not race.
      const lockClient = postgres(url, { ...postgresOptions, max: 1 });
      try {
        await lockClient`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
        await migratePostgres(drizzlePostgres(lockClient), { migrationsFolder });
        await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
      } finally {
        await lockClient.end({ timeout: 5 });
      }
    },
    async listen(channel, onPayload, onRelisten) {
      let listening = false;
      const sub = await client.listen(
        channel,
        (payload) => onPayload(payload),
        () => {
          // postgres.js calls this on the first LISTEN and again after each reconnect.
          if (listening) onRelisten?.();
          listening = true;
        },
      );
      return () => sub.unlisten();
    },
    async notify(channel, payload) {
      await client.notify(channel, payload);
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}

async function openPglite(dir?: string): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder });
    },
    async listen(channel, onPayload) {
      const unsub = await client.listen(channel, onPayload);
      return async () => unsub();
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await client.close();
    },
  };
}

/** Liveness probe for /healthz. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** `err` and the errors it wraps (drizzle 0.45 puts the driver's error on `cause`), outermost first. */
function* errorChain(err: unknown): Generator<object> {
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    yield cur;
    cur = (cur as { cause?: unknown }).cause;
  }
}

/** The PostgreSQL error code of a driver error, unwrapping drizzle 0.45's wrapper (`cause`). */
export function pgErrorCode(err: unknown): string | undefined {
  for (const cur of errorChain(err)) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The violated constraint's name, when the driver reports it. */
export function pgConstraint(err: unknown): string | undefined {
  for (const cur of errorChain(err)) {
    const c =
      (cur as { constraint_name?: unknown; constraint?: unknown }).constraint_name ??
      (cur as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
  }
  return undefined;
}

/**
 * Codes of a connection that could not be made or was lost: postgres.js's own and the socket's
 * (Node's `code` of a failed connect, read or write).
 */
const CONNECTION_LOST_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not taking work: 57P01 admin shutdown (a terminated
 * backend, a fast shutdown), 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting
 * down, in recovery), 53300 too many connections. Class 08 (connection exception) is matched whole.
 */
const SERVER_AWAY_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Whether `err` (a driver error, possibly wrapped by drizzle) says the database is away: unreachable,
 * restarting, or refusing connections, as opposed to refusing this statement. Such a failure is
 * worth a retry a moment later: the request answers 503 with Retry-After (docs/decisions/0102).
 */
export function isDatabaseAway(err: unknown): boolean {
  for (const cur of errorChain(err)) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (CONNECTION_LOST_CODES.has(code) || SERVER_AWAY_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}
