/**
 * Vitest global setup: with a PostgreSQL URL (TEST_DATABASE_URL, else DATABASE_URL) it creates a
 * migrated template database once; each test file then clones it (tests/setup/test-database.ts).
 * Without a URL the tests use in-memory PGlite and nothing is done here.
 */
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string | null;
    pgTemplate: string | null;
  }
}

/**
 * The names of a run's databases start with its own database's name (`lastslot_ci` →
 * `lastslot_ci_t_template`, `lastslot_ci_t_<hex>`), so runs against different databases of one
 * server never drop each other's.
 */
export function testDatabasePrefix(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
  return `${name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_t_`;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || null;
  if (!url) {
    project.provide('pgAdminUrl', null);
    project.provide('pgTemplate', null);
    return;
  }
  const prefix = testDatabasePrefix(url);
  const templateDb = `${prefix}template`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await dropTestDatabases(admin, prefix);
  await admin.unsafe(`create database ${templateDb}`);
  const template = await openDatabase({ url: withDatabase(url, templateDb), max: 1 });
  await template.migrate();
  await template.close();
  project.provide('pgAdminUrl', url);
  project.provide('pgTemplate', templateDb);
  return async () => {
    await dropTestDatabases(admin, prefix);
    await admin.end({ timeout: 5 });
  };
}

async function dropTestDatabases(admin: postgres.Sql, prefix: string): Promise<void> {
  const rows = await admin<
    { datname: string }[]
  >`select datname from pg_database where starts_with(datname, ${prefix})`;
  for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
}
