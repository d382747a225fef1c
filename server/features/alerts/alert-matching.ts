/**
 * Which alerts and favourites a new slot is news for (docs/decisions/0086), recorded in the slot's
 * transaction: a rolled-back slot leaves no match, a committed one is never forgotten.
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
  startsAt: Date;
  /** Null when its business does not show in Discover: then no saved search hears of it. */
  listedAt: LatLng | null;
  /** 'Hair Services|Barber Shop' or 'Barber Shop'. */
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
 * Whether an alert wants a slot added at `now`: within `miles`, not started, starting in the window
 * (read from `now` in `timezone`), of the category or a child of the group.
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
 * Records the slot for every active alert that wants it and every favourite with its alert on, unless
 * the customer opted out. Call in the slot's transaction: the key-share locks make a concurrent delete
 * wait rather than fail the match's foreign key. Output: how many it was recorded for.
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
