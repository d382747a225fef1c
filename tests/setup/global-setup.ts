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

export const TEMPLATE_DB = 'lastslot_test_template';

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
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await dropTestDatabases(admin);
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  const template = await openDatabase({ url: withDatabase(url, TEMPLATE_DB), max: 1 });
  await template.migrate();
  await template.close();
  project.provide('pgAdminUrl', url);
  project.provide('pgTemplate', TEMPLATE_DB);
  return async () => {
    await dropTestDatabases(admin);
    await admin.end({ timeout: 5 });
  };
}

async function dropTestDatabases(admin: postgres.Sql): Promise<void> {
  const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like 'lastslot_test_%'`;
  for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
}
