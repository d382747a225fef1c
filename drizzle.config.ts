import { defineConfig } from 'drizzle-kit';

/** drizzle-kit configuration: one schema, one migrations folder, shared by both drivers. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './drizzle',
  casing: 'snake_case',
});
