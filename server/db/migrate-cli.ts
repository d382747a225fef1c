/** `npm run db:migrate`: applies drizzle/ migrations to DATABASE_URL, or to the PGlite folder. */
import { existsSync } from 'node:fs';
import { loadEnv } from '../core/env';
import { openDatabase } from './client';

if (existsSync('.env')) process.loadEnvFile('.env');
const env = loadEnv();
const database = await openDatabase({
  url: env.DATABASE_URL,
  pgliteDir: env.DATABASE_URL ? undefined : env.PGLITE_DIR,
});
await database.migrate();
await database.close();
console.log(`Migrations applied (${database.kind}).`);
