/**
 * Which alerts and favourites a new slot is news for (docs/decisions/0086), recorded in the
 * transaction that adds the slot: a rolled-back slot leaves no match, a committed one is never
 * forgotten (the emails are written later from these rows, alert-emails.ts).
 */
import { and, between, eq, notExists, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { businessTypeLabel } from '../../../shared/categories';
import { categoryLabels, DISCOVERY_MILES, windowRange, type DiscoveryWindow } from '../../../shared/discovery';
import { boundingBox, distanceMiles, type LatLng } from '../../../shared/geo';
import type { NotificationKind } from '../../../shared/notifications';
import type { Tx } from '../../db/client';
import { alertMatches, alerts, customerLikes, notificationOptOuts } from '../../db/schema/index';

/** Matches written per statement (five parameters each, well under PostgreSQL's 65,535). */
const INSERT_CHUNK = 1000;

/** A slot just added, as matching reads it. */
export interface NewSlot {
  id: string;
  businessId: string;
  /** Its start (UTC instant). */
  startsAt: Date;
  /** Where its business shows in Discover; null when it does not (then no saved search hears of it). */
  listedAt: LatLng | null;
  /** The business's stored type ('Hair Services|Barber Shop' or 'Barber Shop'). */
  businessType: string;
}

/** SQL condition: the account `userId` has not turned notification `kind` off. */
function wants(tx: Tx, userId: AnyPgColumn, kind: NotificationKind) {
  return notExists(
    tx
      .select({ one: sql`1` })
      .from(notificationOptOuts)
      .where(and(eq(notificationOptOuts.userId, userId), eq(notificationOptOuts.kind, kind))),
  );
}

/**
 * True when an alert with `window` (read in IANA zone `timezone`), `category` and its centre at
 * `distance` miles of `miles` wants a slot of `businessType` starting at `startsAt`, added at `now`:
 * within the distance, starting in the window measured from `now` (not yet started), and of the
 * category (a group means its children) when one is set.
 */
export function alertWants(
  alert: { miles: number; window: DiscoveryWindow; timezone: string; category: string | null },
  slot: { distance: number; startsAt: Date; businessType: string },
  now: Date,
): boolean {
  if (slot.distance > alert.miles) return false;
  const { from, to } = windowRange(alert.window, alert.timezone, now);
  const starts = slot.startsAt.getTime();
  if (starts <= now.getTime() || starts < from.getTime() || starts >= to.getTime()) return false;
  if (alert.category === null) return true;
  return categoryLabels(alert.category)?.includes(businessTypeLabel(slot.businessType)) ?? false;
}

/**
 * Records slot `slot`, added at `now`, for every active alert that wants it (`alertWants`; the
 * candidates read by a bounding box of the widest distance) and every favourite of its business
 * with "Email me when this business adds a slot" on, leaving out customers who turned that email
 * off. The alerts and favourites read are key-share locked, so one deleted meanwhile waits for
 * this transaction rather than failing its match's foreign key. Call inside the slot's
 * transaction. Output: how many alerts and favourites it was recorded for.
 */
export async function recordNewSlot(tx: Tx, slot: NewSlot, now: Date): Promise<number> {
  const rows: Array<typeof alertMatches.$inferInsert> = [];
  if (slot.listedAt) {
    const at = slot.listedAt;
    const box = boundingBox(at, Math.max(...DISCOVERY_MILES));
    const candidates = await tx
      .select({
        id: alerts.id,
        latitude: alerts.latitude,
        longitude: alerts.longitude,
        miles: alerts.miles,
        window: alerts.window,
        category: alerts.category,
        timezone: alerts.timezone,
      })
      .from(alerts)
      .where(
        and(
          eq(alerts.paused, false),
          between(alerts.latitude, box.minLatitude, box.maxLatitude),
          between(alerts.longitude, box.minLongitude, box.maxLongitude),
          wants(tx, alerts.customerId, 'slot_alert'),
        ),
      )
      .for('key share');
    for (const a of candidates) {
      const distance = distanceMiles(a, at);
      const alert = { ...a, window: a.window as DiscoveryWindow };
      if (!alertWants(alert, { distance, startsAt: slot.startsAt, businessType: slot.businessType }, now)) continue;
      rows.push({ alertId: a.id, slotId: slot.id, distanceMiles: Math.round(distance * 100) / 100, matchedAt: now });
    }
  }
  const likes = await tx
    .select({ id: customerLikes.id })
    .from(customerLikes)
    .where(
      and(
        eq(customerLikes.businessId, slot.businessId),
        eq(customerLikes.notifyNewSlots, true),
        wants(tx, customerLikes.customerId, 'favourite_slot'),
      ),
    )
    .for('key share');
  for (const l of likes) rows.push({ likeId: l.id, slotId: slot.id, matchedAt: now });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx
      .insert(alertMatches)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflictDoNothing();
  }
  return rows.length;
}
