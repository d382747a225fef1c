import { and, isNotNull, isNull, or } from 'drizzle-orm';
import { inject, describe, expect, it } from 'vitest';
import { slots } from '../server/db/schema/index';
import { searchSlots } from '../server/features/discovery/discovery.service';
import { discoverySearchInput } from '../shared/schemas/discovery';
import { createTestDatabase } from '../tests/setup/test-database';
import { baselineStatements } from './baseline-sql';
import { captureAppSql } from './capture-sql';
import { discoverySearches, seedBenchDatabase, seedDiscoveryData, seedSize } from './db';

/**
 * The bench's discovery scenario on a small scale: its seeding runs, the app answers the bench's
 * searches from it, and the baseline server's SQL is the SQL the app issues. The seeding is bulk
 * SQL through postgres.js, so this needs PostgreSQL (TEST_DATABASE_URL); it times nothing.
 */
describe.skipIf(!inject('pgAdminUrl'))('bench discovery scenario', () => {
  it('seeds clustered businesses and slots that the searches find, with the baseline SQL', async () => {
    const tdb = await createTestDatabase();
    try {
      await seedBenchDatabase(tdb.url!, seedSize(0.002));
      const counts = await seedDiscoveryData(tdb.url!, 2_000, 64);
      expect(counts['discovery businesses']).toBe(2_000);
      // 10 slots each, but those of the 2% of businesses hidden from Discover.
      expect(counts['discovery slots']).toBeGreaterThan(19_000);
      let found = 0;
      for (const search of discoverySearches(40)) {
        const page = await searchSlots(
          { db: tdb.database.db, now: () => new Date() },
          discoverySearchInput.parse(search),
        );
        found += page.results.length;
      }
      expect(found).toBeGreaterThan(40);
      // A second size grows the same data set: businesses 2,001 to 3,000 join, their slots with cells.
      const grown = await seedDiscoveryData(tdb.url!, 3_000, 64, 2_001);
      expect(grown['discovery businesses']).toBe(3_000);
      expect(grown['discovery slots']).toBeGreaterThan(29_000);
      const missing = await tdb.database.db.$count(
        slots,
        and(isNotNull(slots.latitude), or(isNull(slots.smallCell), isNull(slots.largeCell))),
      );
      expect(missing).toBe(0);
      const captured = await captureAppSql(tdb.url!);
      expect(captured.discovery).toEqual(baselineStatements().discovery);
    } finally {
      await tdb.close();
    }
  }, 180_000);
});
