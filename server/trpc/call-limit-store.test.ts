import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { callLimitStoreFor } from './call-limit-store';

const databaseOf = (kind: Database['kind']) => ({ kind, db: {} }) as unknown as Database;

describe('callLimitStoreFor', () => {
  it('counts in the shared database on PostgreSQL, where several processes serve', () => {
    expect(callLimitStoreFor(databaseOf('postgres')).kind).toBe('shared');
  });

  it('counts in memory on PGlite, whose one process serves every request', () => {
    expect(callLimitStoreFor(databaseOf('pglite')).kind).toBe('memory');
  });
});
