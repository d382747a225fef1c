/** Which driver errors say "the database is away" (docs/decisions/0102), as postgres.js and drizzle shape them. */
import { createServer } from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../core/errors';
import { isDatabaseAway, pgErrorCode } from './client';

/** A PostgresError as postgres.js builds it from the server's ErrorResponse fields. */
const serverError = (code: string, message = 'server error') =>
  new postgres.PostgresError({ severity: 'FATAL', code, message } as unknown as string);

/** postgres.js's own connection errors: an Error with `code` and `errno` naming what happened. */
const connectionError = (code: string) =>
  Object.assign(new Error(`write ${code} 127.0.0.1:5432`), { code, errno: code, address: '127.0.0.1', port: 5432 });

/** Drizzle 0.45's wrapper: the driver's error on `cause`. */
const wrapped = (cause: Error) => new DrizzleQueryError('select 1', [], cause);

/** The error of a real query through postgres.js to a port nothing listens on. */
async function refusedConnectionError(): Promise<unknown> {
  const probe = createServer();
  const port = await new Promise<number>((resolve) =>
    probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
  );
  await new Promise((resolve) => probe.close(resolve));
  const sql = postgres({ host: '127.0.0.1', port, max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql`select 1`;
    return null;
  } catch (err) {
    return err;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

describe('isDatabaseAway', () => {
  it.each(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNRESET'])(
    'is true for the lost connection %s, bare and wrapped by drizzle',
    (code) => {
      expect(isDatabaseAway(connectionError(code))).toBe(true);
      expect(isDatabaseAway(wrapped(connectionError(code)))).toBe(true);
    },
  );

  it.each(['57P01', '57P02', '57P03', '53300', '08006', '08001', '08P01'])(
    'is true for the server going away or refusing connections (%s), bare and wrapped',
    (code) => {
      expect(isDatabaseAway(serverError(code))).toBe(true);
      expect(isDatabaseAway(wrapped(serverError(code)))).toBe(true);
    },
  );

  it('is true for a real refused connection through postgres.js', async () => {
    const err = await refusedConnectionError();
    expect(err).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseAway(err)).toBe(true);
    expect(isDatabaseAway(wrapped(err as Error))).toBe(true);
  });

  it.each(['23505', '23503', '40001', '40P01', '42P01', '22P02', '57014', '53200'])(
    "is false for a statement's own failure (%s)",
    (code) => {
      expect(isDatabaseAway(wrapped(serverError(code)))).toBe(false);
      // The code is still read for the services' own checks.
      expect(pgErrorCode(wrapped(serverError(code)))).toBe(code);
    },
  );

  it('is false for anything that is not a driver error', () => {
    expect(isDatabaseAway(new Error('boom'))).toBe(false);
    expect(isDatabaseAway(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseAway(new DomainError('CONFLICT', 'taken'))).toBe(false);
    expect(isDatabaseAway(undefined)).toBe(false);
    expect(isDatabaseAway('ECONNREFUSED')).toBe(false);
  });
});
