/**
 * A customer's alerts of new slots (docs/decisions/0086): saved from the Discover search being
 * looked at, listed, paused and resumed, deleted. Which new slot an alert hears of is
 * alert-matching.ts; its emails are alert-emails.ts.
 */
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
  /** What the alert is called: the typed place's name ('Leeds', 'LS1 6DL') or 'your location'. */
  label: string;
  /** The place as typed; null for an alert saved from a position. */
  place: string | null;
  /** The centre (degrees): the typed place's, or the position chosen, rounded to 3 decimal places. */
  latitude: number;
  longitude: number;
  miles: number;
  window: DiscoveryWindow;
  /** A category group or child; null: every category. */
  category: string | null;
  paused: boolean;
  /** When it was saved (UTC instant). */
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
 * alerts.create: saves `input` (a Discover search) as an alert of customer `customerId`. The
 * centre is the typed place's (offline gazetteer) or the position sent, rounded to 3 decimal
 * places (about 100 m); nothing more precise is kept. Throws BAD_REQUEST MSG.placeNotFound (field
 * place) for an unknown place, CONFLICT MSG.alertExists when the customer already has an alert
 * for the same centre, distance, window and category, PRECONDITION_FAILED MSG.alertLimit when they
 * have ALERT_LIMIT (10) already. Output: the new alert.
 */
export async function createAlert(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  customerId: string,
  input: CreateAlertInput,
): Promise<AlertView> {
  const centre = searchCentre(input);
  const category = input.category ?? null;
  return deps.db.transaction(async (tx) => {
    // One save at a time per customer, so two quick saves cannot pass the limit or the duplicate check together.
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
 * alerts.setPaused: pauses (`paused` true) or resumes one of the customer's alerts. A paused alert
 * hears of no new slot, and the slots it had not emailed yet are dropped; a resumed one hears of
 * slots added from then on. Idempotent. Throws NOT_FOUND MSG.alertNotFound for an unknown alert
 * or another customer's. Output: the alert.
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

/**
 * alerts.delete: deletes one of the customer's alerts with the slots it had not emailed yet.
 * Throws NOT_FOUND MSG.alertNotFound for an unknown alert or another customer's. Output: { id }.
 */
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
