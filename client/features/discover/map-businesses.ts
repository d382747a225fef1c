/**
 * What Discover's map shows of the list: one pin per business among the results, in the list's
 * order. Kept apart from the map (a lazily loaded chunk) because the page uses it too.
 */
import type { DiscoverResult } from './result-card';

/** A business on the map: who, where (degrees) and how many of the list's slots are its. */
export interface MapBusiness {
  businessId: string;
  businessName: string;
  slug: string;
  latitude: number;
  longitude: number;
  slotCount: number;
}

/** The businesses of `results`, each once, in the order their first slot appears in the list. */
export function businessesOf(results: readonly DiscoverResult[]): MapBusiness[] {
  const byId = new Map<string, MapBusiness>();
  for (const r of results) {
    const known = byId.get(r.businessId);
    if (known) known.slotCount += 1;
    else
      byId.set(r.businessId, {
        businessId: r.businessId,
        businessName: r.businessName,
        slug: r.slug,
        latitude: r.latitude,
        longitude: r.longitude,
        slotCount: 1,
      });
  }
  return [...byId.values()];
}
