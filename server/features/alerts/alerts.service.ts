/** A customer's alerts of new slots, saved from a Discover search (docs/decisions/0086). */
import { and, desc, eq } from 'drizzle-orm';
import { ALERT_LIMIT, POSITION_ALERT_LABEL } from '../../../shared/alerts';
import type { DiscoveryWindow } from '../../../shared/discovery';
import { MSG } from '../../../shared/messages';
import type { CreateAlertInput, SetAlertPausedInput } from '../../../shared/schemas/alerts';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { alertMatches, alerts, users } from '../../db/schema/index';
import { searchCentre } from '../discovery/discovery.service';

/** One alert as the customer sees it. */
export interface AlertView {
  id: string;
  /** The typed place's name ('Leeds', 'LS1 6DL') or 'your location'. */
  label: string;
  /** Null for an alert saved from a position. */
  place: string | null;
  /** The centre, in degrees; a chosen position is rounded to 3 decimal places. */
  latitude: number;
  longitude: number;
  miles: number;
  window: DiscoveryWindow;
  /** A category group or child; null: every category. */
  category: string | null;
  paused: boolean;
  createdAt: Date;
}

/** The columns of `AlertView` (the export adds the rest of the row). */
export const alertViewColumns = {
  id: alerts.id,
  label: alerts.label,
  place: alerts.place,
  latitude: alerts.latitude,
  longitude: alerts.longitude,
  miles: alerts.miles,
  window: alerts.window,
  category: alerts.category,
  paused: alerts.paused,
  createdAt: alerts.createdAt,
};

const asView = (row: { window: string } & Omit<AlertView, 'window'>): AlertView => ({
  ...row,
  window: row.window as DiscoveryWindow,
});

/**
 * alerts.create: saves a Discover search as an alert; a position is kept to about 100 m, never finer.
 * Throws BAD_REQUEST (field place) for an unknown place, CONFLICT for a duplicate alert,
 * PRECONDITION_FAILED at ALERT_LIMIT.
 */
export async function createAlert(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  customerId: string,
  input: CreateAlertInput,
): Promise<AlertView> {
  const centre = searchCentre(input);
  const category = input.category ?? null;
  return deps.db.transaction(async (tx) => {
    // One save at a time per customer, so two quick saves cannot both pass the limit or duplicate check.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, customerId)).for('no key update');
    const mine = await tx
      .select({
        latitude: alerts.latitude,
        longitude: alerts.longitude,
        miles: alerts.miles,
        window: alerts.window,
        category: alerts.category,
      })
      .from(alerts)
      .where(eq(alerts.customerId, customerId));
    const same = mine.some(
      (a) =>
        a.latitude === centre.latitude &&
        a.longitude === centre.longitude &&
        a.miles === input.miles &&
        a.window === input.window &&
        a.category === category,
    );
    if (same) throw new DomainError('CONFLICT', MSG.alertExists);
    if (mine.length >= ALERT_LIMIT) throw new DomainError('PRECONDITION_FAILED', MSG.alertLimit);
    const [row] = await tx
      .insert(alerts)
      .values({
        customerId,
        place: input.place ? input.place : null,
        label: centre.place ?? POSITION_ALERT_LABEL,
        latitude: centre.latitude,
        longitude: centre.longitude,
        miles: input.miles,
        window: input.window,
        category,
        timezone: input.timezone,
        createdAt: deps.now(),
      })
      .returning(alertViewColumns);
    return asView(row!);
  });
}

/** alerts.list: the customer's alerts, newest first. */
export async function listAlerts(deps: Pick<ServiceDeps, 'db'>, customerId: string): Promise<AlertView[]> {
  const rows = await deps.db
    .select(alertViewColumns)
    .from(alerts)
    .where(eq(alerts.customerId, customerId))
    .orderBy(desc(alerts.createdAt), desc(alerts.id));
  return rows.map(asView);
}

/**
 * alerts.setPaused: pausing drops the slots not yet emailed; a resumed alert hears of slots added from
 * then on. Idempotent. Throws NOT_FOUND for an unknown alert or another customer's.
 */
export async function setAlertPaused(
  deps: Pick<ServiceDeps, 'db'>,
  customerId: string,
  input: SetAlertPausedInput,
): Promise<AlertView> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(alerts)
      .set({ paused: input.paused })
      .where(and(eq(alerts.id, input.alertId), eq(alerts.customerId, customerId)))
      .returning(alertViewColumns);
    if (!row) throw new DomainError('NOT_FOUND', MSG.alertNotFound);
    if (input.paused) await tx.delete(alertMatches).where(eq(alertMatches.alertId, input.alertId));
    return asView(row);
  });
}

/** alerts.delete: deletes an alert of the customer. Throws NOT_FOUND for an unknown alert or another customer's. */
export async function deleteAlert(
  deps: Pick<ServiceDeps, 'db'>,
  customerId: string,
  alertId: string,
): Promise<{ id: string }> {
  const [row] = await deps.db
    .delete(alerts)
    .where(and(eq(alerts.id, alertId), eq(alerts.customerId, customerId)))
    .returning({ id: alerts.id });
  if (!row) throw new DomainError('NOT_FOUND', MSG.alertNotFound);
  return row;
}
