/** Time zone choices for Business Information (docs/decisions/0013): IANA zones by region. */
import { DEFAULT_TIMEZONE } from '../../../shared/zoned-time';

export interface ZoneGroup {
  group: string;
  items: Array<{ value: string; label: string }>;
}

/** 'America/Argentina/Buenos_Aires' → 'America/Argentina/Buenos Aires' (searchable by city). */
const zoneLabel = (zone: string) => zone.replace(/_/g, ' ');

function knownZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [DEFAULT_TIMEZONE];
  }
}

/**
 * The runtime's IANA zones grouped by region (Europe first, as most businesses are in the UK),
 * plus UTC and `current` when the list lacks them.
 */
export function timezoneOptions(current: string): ZoneGroup[] {
  const zones = new Set(knownZones());
  zones.add(DEFAULT_TIMEZONE);
  zones.add('UTC');
  if (current) zones.add(current);
  const groups = new Map<string, ZoneGroup['items']>();
  for (const zone of [...zones].sort()) {
    const region = zone.includes('/') ? zone.split('/')[0]! : 'Other';
    const items = groups.get(region) ?? [];
    items.push({ value: zone, label: zoneLabel(zone) });
    groups.set(region, items);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === 'Europe' ? -1 : b === 'Europe' ? 1 : a.localeCompare(b)))
    .map(([group, items]) => ({ group, items }));
}
