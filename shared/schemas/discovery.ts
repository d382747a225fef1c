/**
 * Input schemas of the Discover search, its live stream and the business's Location card, with
 * the words of each refusal (docs/decisions/0081).
 */
import { z } from 'zod';
import {
  categoryLabels,
  DISCOVERY_MILES,
  DISCOVERY_PAGE_DEFAULT,
  DISCOVERY_PAGE_MAX,
  DISCOVERY_SORTS,
  DISCOVERY_WINDOWS,
} from '../discovery';
import { isLatitude, isLongitude } from '../geo';
import { MSG } from '../messages';
import { DEFAULT_TIMEZONE, isValidTimezone } from '../zoned-time';
import { safeText } from './text';

/** Latitude in degrees, -90..90, finite ('Latitude must be a number between -90 and 90.'). */
export const latitudeSchema = z.number({ error: MSG.latitudeRange }).refine(isLatitude, MSG.latitudeRange);
/** Longitude in degrees, -180..180, finite. */
export const longitudeSchema = z.number({ error: MSG.longitudeRange }).refine(isLongitude, MSG.longitudeRange);

const milesSchema = z
  .number({ error: MSG.discoveryDistance })
  .refine((m) => (DISCOVERY_MILES as readonly number[]).includes(m), MSG.discoveryDistance);

/**
 * The fields of a search that an alert keeps too (alerts.create, docs/decisions/0086). Where:
 * `latitude` + `longitude` (the customer's position, rounded to about 100 m by the client; the
 * server rounds it again) OR `place` (a town or postcode typed), never both (`oneWhere`).
 * `timezone`: the customer's IANA zone, for 'today' and 'tomorrow' (default Europe/London).
 * `category`: a parent group or one child of the category list.
 */
export const discoverySearchFields = {
  window: z.enum(DISCOVERY_WINDOWS, { error: MSG.discoveryWindow }),
  latitude: latitudeSchema.optional(),
  longitude: longitudeSchema.optional(),
  place: safeText({ error: MSG.discoveryWhere }).trim().max(100, MSG.placeNotFound).optional(),
  miles: milesSchema,
  category: safeText({ error: MSG.discoveryCategory })
    .max(100, MSG.discoveryCategory)
    .refine((c) => categoryLabels(c) !== null, MSG.discoveryCategory)
    .nullish(),
  timezone: safeText({ error: MSG.discoveryTimezone })
    .max(64, MSG.discoveryTimezone)
    .refine(isValidTimezone, MSG.discoveryTimezone)
    .default(DEFAULT_TIMEZONE),
};

/** Refinement of a search's where: a typed place or a whole position, not both, else MSG.discoveryWhere on `place`. */
export function oneWhere(
  v: { place?: string; latitude?: number; longitude?: number },
  ctx: z.core.$RefinementCtx,
): void {
  const hasPlace = Boolean(v.place);
  const hasPoint = v.latitude !== undefined || v.longitude !== undefined;
  const wholePoint = v.latitude !== undefined && v.longitude !== undefined;
  if (hasPlace === hasPoint || (hasPoint && !wholePoint)) {
    ctx.addIssue({ code: 'custom', path: ['place'], message: MSG.discoveryWhere });
  }
}

/**
 * discovery.search: the search fields (`discoverySearchFields`), `sort`, and `cursor` (the
 * previous page's `nextCursor`) with the page size `limit`.
 */
export const discoverySearchInput = z
  .object({
    ...discoverySearchFields,
    sort: z.enum(DISCOVERY_SORTS, { error: MSG.discoverySort }).default('soonest'),
    cursor: safeText({ error: MSG.discoveryCursor }).max(400, MSG.discoveryCursor).nullish(),
    limit: z
      .number({ error: MSG.badRequest })
      .int(MSG.badRequest)
      .min(1, MSG.badRequest)
      .max(DISCOVERY_PAGE_MAX, MSG.badRequest)
      .default(DISCOVERY_PAGE_DEFAULT),
  })
  .superRefine(oneWhere);
export type DiscoverySearchInput = z.infer<typeof discoverySearchInput>;
export type DiscoverySearchForm = z.input<typeof discoverySearchInput>;

/**
 * discovery.onChange: the area the client's list covers (its search's centre and distance), so
 * the stream leaves out new slots elsewhere; absent: every change. `lastEventId` is what an SSE
 * client sends on reconnect (not replayed: the first event is always a 'resync').
 */
export const discoveryStreamInput = z
  .object({
    latitude: latitudeSchema.optional(),
    longitude: longitudeSchema.optional(),
    miles: milesSchema.optional(),
    lastEventId: safeText().max(200).nullish(),
  })
  .optional();
export type DiscoveryStreamInput = z.infer<typeof discoveryStreamInput>;

/** settings.setLocation: the business's position from its owner's device or the map pin. */
export const setBusinessLocationInput = z.object({
  latitude: latitudeSchema,
  longitude: longitudeSchema,
  source: z.enum(['device', 'pin'], { error: MSG.locationSourceInvalid }),
});
export type SetBusinessLocationInput = z.infer<typeof setBusinessLocationInput>;

/** settings.setDiscoverable: the "Show my slots in Discover" switch. */
export const setDiscoverableInput = z.object({ discoverable: z.boolean({ error: MSG.badRequest }) });
export type SetDiscoverableInput = z.infer<typeof setDiscoverableInput>;
