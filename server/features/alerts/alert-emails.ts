/**
 * The emails of alerts and favourites (docs/decisions/0086). The first new slot an alert hears of starts
 * its round; at the round's end one transaction locks its row (SKIP LOCKED, so two processes never email
 * the same one), deletes its matches and queues one message of the slots still open. A process that
 * dies before commit leaves the matches for the next pass.
 */
import { and, asc, eq, gt, inArray, isNotNull, lte, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import { ALERT_EMAIL_INTERVAL_MINUTES, describeAlert } from '../../../shared/alerts';
import { businessTypeLabel } from '../../../shared/categories';
import type { DiscoveryWindow } from '../../../shared/discovery';
import { distanceMiles, type LatLng } from '../../../shared/geo';
import { runEvery, type Passes } from '../../core/run-every';
import type { Db, Tx } from '../../db/client';
import { alertMatches, alerts, businessProfiles, customerLikes, slots, users } from '../../db/schema/index';
import { newSlotsEmail, type NewSlotLine } from '../../email/templates';
import { noActiveOrDeclinedBooking } from '../businesses/businesses.service';
import { queueNotification } from '../notifications/notifications.service';

/** Default length of a round (ms). */
export const ALERT_EMAIL_INTERVAL_MS = ALERT_EMAIL_INTERVAL_MINUTES * 60_000;
/** Alerts and favourites one pass takes. */
const BATCH = 50;

interface EmailParams {
  db: Db;
  appOrigin: string;
  now?: Date;
  /** A round's length (ms). */
  intervalMs?: number;
}

type Taken = { slotId: string; distanceMiles: number | null };

/** A saved search's place: its slots must still be listed in Discover within `miles` of `centre`. */
type ListedNear = LatLng & { miles: number };

/**
 * The slots of `taken` still open and not started, soonest first, as the email lists them; with
 * `listedNear`, only those still shown in Discover within its distance, at their distance now. A
 * business's zone is named when it is not `customerZone` (null: never named).
 */
async function openSlotLines(
  tx: Tx,
  appOrigin: string,
  taken: Taken[],
  now: Date,
  customerZone: string | null,
  listedNear: ListedNear | null,
): Promise<NewSlotLine[]> {
  if (taken.length === 0) return [];
  const rows = await tx
    .select({
      id: slots.id,
      latitude: slots.latitude,
      longitude: slots.longitude,
      description: slots.description,
      date: slots.date,
      startTime: slots.startTime,
      endTime: slots.endTime,
      businessName: businessProfiles.businessName,
      slug: businessProfiles.slug,
      businessType: businessProfiles.businessType,
      timezone: businessProfiles.timezone,
    })
    .from(slots)
    .innerJoin(businessProfiles, eq(businessProfiles.id, slots.businessId))
    .where(
      and(
        inArray(
          slots.id,
          taken.map((t) => t.slotId),
        ),
        eq(slots.isBooked, false),
        gt(slots.startsAt, now),
        noActiveOrDeclinedBooking(tx),
        listedNear ? isNotNull(slots.latitude) : undefined,
      ),
    )
    .orderBy(asc(slots.startsAt), asc(slots.id));
  const distance = new Map(taken.map((t) => [t.slotId, t.distanceMiles]));
  if (listedNear) {
    for (const r of rows) {
      if (r.latitude === null || r.longitude === null) continue;
      distance.set(r.id, distanceMiles(listedNear, { latitude: r.latitude, longitude: r.longitude }));
    }
  }
  const shown = listedNear ? rows.filter((r) => distance.get(r.id)! <= listedNear.miles) : rows;
  return shown.map((r) => ({
    businessName: r.businessName,
    category: businessTypeLabel(r.businessType),
    description: r.description,
    date: r.date,
    startTime: r.startTime,
    endTime: r.endTime,
    ...(customerZone && r.timezone !== customerZone ? { timeZone: r.timezone } : {}),
    distanceMiles: roundMiles(distance.get(r.id) ?? null),
    url: `${appOrigin}/${r.slug}`,
  }));
}

const roundMiles = (miles: number | null) => (miles === null ? null : Math.round(miles * 100) / 100);

const plural = (n: number, one: string, many: string) => (n === 1 ? one : `${n} ${many}`);

type Pass = Required<Omit<EmailParams, 'db'>>;

interface RoundEmail {
  kind: 'slot_alert' | 'favourite_slot';
  subject: string;
  intro: string;
  reason: string;
  action: { label: string; url: string };
}

/**
 * Ends one round, its row already locked: nothing while the last email is less than a round old; else
 * deletes the matches and, when `active` with slots still open, queues a message. Output: whether it did.
 */
async function endRound(
  tx: Tx,
  p: Pass,
  round: {
    userId: string;
    to: string;
    active: boolean;
    lastEmailedAt: Date | null;
    matchesOf: SQL | undefined;
    customerZone: string | null;
    /** A saved search: its slots must still be listed near its place (`openSlotLines`). */
    listedNear: ListedNear | null;
    dedupeKey: string;
    email: (lines: NewSlotLine[]) => RoundEmail;
    markEmailed: () => Promise<unknown>;
  },
): Promise<boolean> {
  if (round.lastEmailedAt && round.lastEmailedAt.getTime() > p.now.getTime() - p.intervalMs) return false;
  const taken = await tx
    .delete(alertMatches)
    .where(round.matchesOf)
    .returning({ slotId: alertMatches.slotId, distanceMiles: alertMatches.distanceMiles });
  if (!round.active) return false;
  const lines = await openSlotLines(tx, p.appOrigin, taken, p.now, round.customerZone, round.listedNear);
  if (lines.length === 0) return false;
  const e = round.email(lines);
  await queueNotification(tx, p, {
    kind: e.kind,
    userId: round.userId,
    to: round.to,
    now: p.now,
    reason: e.reason,
    dedupeKey: round.dedupeKey,
    build: (footer) =>
      newSlotsEmail(round.to, e.subject, {
        heading: e.subject,
        intro: e.intro,
        slots: lines,
        action: e.action,
        footer,
      }),
  });
  await round.markEmailed();
  return true;
}

/** Ends an alert's round unless another process holds its row; none while paused. */
async function emailAlert(tx: Tx, p: Pass, alertId: string): Promise<boolean> {
  const [alert] = await tx
    .select({
      customerId: alerts.customerId,
      label: alerts.label,
      latitude: alerts.latitude,
      longitude: alerts.longitude,
      miles: alerts.miles,
      window: alerts.window,
      category: alerts.category,
      timezone: alerts.timezone,
      paused: alerts.paused,
      lastEmailedAt: alerts.lastEmailedAt,
      email: users.email,
    })
    .from(alerts)
    .innerJoin(users, eq(users.id, alerts.customerId))
    .where(eq(alerts.id, alertId))
    .for('no key update', { of: alerts, skipLocked: true })
    .limit(1);
  if (!alert) return false;
  const terms = { ...alert, window: alert.window as DiscoveryWindow };
  return endRound(tx, p, {
    userId: alert.customerId,
    to: alert.email,
    active: !alert.paused,
    lastEmailedAt: alert.lastEmailedAt,
    matchesOf: eq(alertMatches.alertId, alertId),
    customerZone: alert.timezone,
    listedNear: { latitude: alert.latitude, longitude: alert.longitude, miles: alert.miles },
    dedupeKey: `slot_alert:${alertId}:${p.now.toISOString()}`,
    email: (lines) => ({
      kind: 'slot_alert',
      subject: `${plural(lines.length, 'New slot', 'new slots')} near ${alert.label}`,
      intro: `Just added, matching your alert (${describeAlert(terms)}):`,
      reason: 'You receive this because you saved an alert on LastSlot Discover.',
      action: { label: 'Manage your alerts', url: `${p.appOrigin}/settings#alerts` },
    }),
    markEmailed: () => tx.update(alerts).set({ lastEmailedAt: p.now }).where(eq(alerts.id, alertId)),
  });
}

/** Ends a favourite's round as `emailAlert` does; none while its alert is off. */
async function emailFavourite(tx: Tx, p: Pass, likeId: string): Promise<boolean> {
  const [like] = await tx
    .select({
      customerId: customerLikes.customerId,
      notify: customerLikes.notifyNewSlots,
      lastAlertedAt: customerLikes.lastAlertedAt,
      email: users.email,
      businessName: businessProfiles.businessName,
      slug: businessProfiles.slug,
    })
    .from(customerLikes)
    .innerJoin(users, eq(users.id, customerLikes.customerId))
    .innerJoin(businessProfiles, eq(businessProfiles.id, customerLikes.businessId))
    .where(eq(customerLikes.id, likeId))
    .for('no key update', { of: customerLikes, skipLocked: true })
    .limit(1);
  if (!like) return false;
  const business = like.businessName;
  return endRound(tx, p, {
    userId: like.customerId,
    to: like.email,
    active: like.notify,
    lastEmailedAt: like.lastAlertedAt,
    matchesOf: eq(alertMatches.likeId, likeId),
    customerZone: null,
    // A favourite follows its business whether or not it shows in Discover (docs/product-rules.md §20).
    listedNear: null,
    dedupeKey: `favourite_slot:${likeId}:${p.now.toISOString()}`,
    email: (lines) => ({
      kind: 'favourite_slot',
      subject: `${plural(lines.length, 'New slot', 'new slots')} at ${business}`,
      intro: `${business}, one of your favourites, just added ${plural(lines.length, 'a slot', 'slots')}:`,
      reason: `You receive this because you asked to hear when ${business} adds a slot.`,
      action: { label: `See every slot at ${business}`, url: `${p.appOrigin}/${like.slug}` },
    }),
    markEmailed: () => tx.update(customerLikes).set({ lastAlertedAt: p.now }).where(eq(customerLikes.id, likeId)),
  });
}

/**
 * One pass: up to BATCH alerts and favourites with a match a round old get their email, each in its own
 * transaction; a failure is left for the next pass. Output: messages queued. Throws only when listing fails.
 */
export async function sendDueAlertEmailsOnce(params: EmailParams & { logger: Logger }): Promise<number> {
  const p = {
    appOrigin: params.appOrigin,
    now: params.now ?? new Date(),
    intervalMs: params.intervalMs ?? ALERT_EMAIL_INTERVAL_MS,
  };
  const due = await params.db
    .selectDistinct({ alertId: alertMatches.alertId, likeId: alertMatches.likeId })
    .from(alertMatches)
    .where(lte(alertMatches.matchedAt, new Date(p.now.getTime() - p.intervalMs)))
    .limit(BATCH);
  let queued = 0;
  for (const d of due) {
    try {
      const sent = await params.db.transaction((tx) =>
        d.alertId ? emailAlert(tx, p, d.alertId) : emailFavourite(tx, p, d.likeId!),
      );
      if (sent) queued++;
    } catch (err) {
      params.logger.warn({ err, alertId: d.alertId, likeId: d.likeId }, 'alert email could not be written');
    }
  }
  return queued;
}

/** Runs `sendDueAlertEmailsOnce` every `pollMs` (ms) until `stop()`; `kick` after a pass that queued messages. */
export function startAlertEmails(params: {
  db: Db;
  appOrigin: string;
  logger: Logger;
  kick: () => void;
  intervalMs?: number;
  pollMs?: number;
}): Passes {
  const pass = async () => {
    if ((await sendDueAlertEmailsOnce(params)) > 0) params.kick();
  };
  return runEvery(pass, { intervalMs: params.pollMs ?? 5_000, logger: params.logger, failure: 'alert emails failed' });
}
