/**
 * Notifications (docs/decisions/0050, 0054, 0086): one email per event, deduplicated in the outbox, with
 * a one-click unsubscribe token stored only hashed. Preferences are applied at send time, so a later
 * opt-out still counts.
 */
import { and, eq } from 'drizzle-orm';
import {
  isNotificationKind,
  NOTIFICATION_LABELS,
  notificationKindsFor,
  type NotificationKind,
} from '../../../shared/notifications';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import type { DbOrTx, Tx } from '../../db/client';
import { emailOutbox, notificationOptOuts, users } from '../../db/schema/index';
import type { NotificationFooter } from '../../email/layout';
import { enqueueEmail, type EmailMessage } from '../../email/outbox';
import { generateToken, hashToken } from '../auth/tokens';

const REASONS: Record<'business' | 'customer', string> = {
  business: 'You receive this because your business takes bookings on LastSlot.',
  customer: 'You receive this because you requested an appointment on LastSlot.',
};

/** The one-click unsubscribe page and endpoint for `token` (GET shows it, POST applies it). */
export function unsubscribeUrl(deps: Pick<ServiceDeps, 'appOrigin'>, token: string): string {
  return `${deps.appOrigin}/unsubscribe/${token}`;
}

/**
 * Queues notification `kind` in `tx`; `build` gets the footer. About a booking, the dedupe key is
 * `{kind}:{bookingId}`, plus `:{occurrence}` for an event that can recur; otherwise (an alert) the caller
 * gives `reason` and `dedupeKey`.
 */
export async function queueNotification(
  tx: Tx,
  deps: Pick<ServiceDeps, 'appOrigin'>,
  n: {
    kind: NotificationKind;
    userId: string;
    to: string;
    now: Date;
    sendAfter?: Date;
    build: (footer: NotificationFooter) => EmailMessage;
  } & (
    { role: 'business' | 'customer'; bookingId: string; occurrence?: number } | { reason: string; dedupeKey: string }
  ),
): Promise<void> {
  const token = generateToken();
  const footer: NotificationFooter = {
    reason: 'reason' in n ? n.reason : REASONS[n.role],
    unsubscribeUrl: unsubscribeUrl(deps, token),
    settingsUrl: `${deps.appOrigin}/settings`,
  };
  const about =
    'dedupeKey' in n
      ? { bookingId: null, dedupeKey: n.dedupeKey }
      : {
          bookingId: n.bookingId,
          dedupeKey:
            n.occurrence === undefined ? `${n.kind}:${n.bookingId}` : `${n.kind}:${n.bookingId}:${n.occurrence}`,
        };
  await enqueueEmail(tx, n.build(footer), n.now, {
    kind: n.kind,
    userId: n.userId,
    ...about,
    unsubscribeTokenHash: hashToken(token),
    sendAfter: n.sendAfter,
  });
}

/** One switch of the notification settings. */
export interface NotificationPreference {
  kind: NotificationKind;
  label: string;
  description: string;
  enabled: boolean;
}

/** The user's notification switches, in display order; all on by default. */
export async function getNotificationPreferences(
  deps: Pick<ServiceDeps, 'db'>,
  userId: string,
  role: 'business' | 'customer',
): Promise<NotificationPreference[]> {
  const off = await deps.db
    .select({ kind: notificationOptOuts.kind })
    .from(notificationOptOuts)
    .where(eq(notificationOptOuts.userId, userId));
  const offKinds = new Set(off.map((o) => o.kind));
  return notificationKindsFor(role).map((kind) => ({
    kind,
    ...NOTIFICATION_LABELS[kind],
    enabled: !offKinds.has(kind),
  }));
}

/** Turns `kind` on or off. Output: the updated switches. Throws BAD_REQUEST for a kind of the other role. */
export async function setNotificationPreference(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  userId: string,
  role: 'business' | 'customer',
  kind: NotificationKind,
  enabled: boolean,
): Promise<NotificationPreference[]> {
  if (!notificationKindsFor(role).includes(kind)) {
    throw new DomainError('BAD_REQUEST', 'This notification does not apply to your account.');
  }
  await setOptOut(deps.db, userId, kind, !enabled, deps.now());
  return getNotificationPreferences(deps, userId, role);
}

async function setOptOut(db: DbOrTx, userId: string, kind: string, optedOut: boolean, now: Date) {
  if (optedOut) {
    await db.insert(notificationOptOuts).values({ userId, kind, createdAt: now }).onConflictDoNothing();
  } else {
    await db
      .delete(notificationOptOuts)
      .where(and(eq(notificationOptOuts.userId, userId), eq(notificationOptOuts.kind, kind)));
  }
}

/** Text of an unknown or stale unsubscribe link. */
export const UNSUBSCRIBE_LINK_INVALID = 'This unsubscribe link is not valid. You can choose your emails in Settings.';

async function tokenOwner(deps: Pick<ServiceDeps, 'db'>, token: string) {
  const [row] = await deps.db
    .select({ userId: emailOutbox.userId, kind: emailOutbox.kind, email: users.email })
    .from(emailOutbox)
    .innerJoin(users, eq(users.id, emailOutbox.userId))
    .where(eq(emailOutbox.unsubscribeTokenHash, hashToken(token)))
    .limit(1);
  if (!row?.userId || !row.kind || !isNotificationKind(row.kind)) {
    throw new DomainError('NOT_FOUND', UNSUBSCRIBE_LINK_INVALID);
  }
  return { userId: row.userId, kind: row.kind, email: row.email };
}

/**
 * What the unsubscribe `token` would turn off, changing nothing: { kind, label, email (masked),
 * unsubscribed }. Throws NOT_FOUND for an unknown token or a deleted account.
 */
export async function describeUnsubscribe(deps: Pick<ServiceDeps, 'db'>, token: string) {
  const owner = await tokenOwner(deps, token);
  const [off] = await deps.db
    .select({ kind: notificationOptOuts.kind })
    .from(notificationOptOuts)
    .where(and(eq(notificationOptOuts.userId, owner.userId), eq(notificationOptOuts.kind, owner.kind)))
    .limit(1);
  return {
    kind: owner.kind,
    label: NOTIFICATION_LABELS[owner.kind].label,
    email: maskEmail(owner.email),
    unsubscribed: Boolean(off),
  };
}

/** One-click unsubscribe (RFC 8058), without a login; idempotent. Output and errors as `describeUnsubscribe`. */
export async function unsubscribe(deps: Pick<ServiceDeps, 'db' | 'now'>, token: string) {
  const owner = await tokenOwner(deps, token);
  await setOptOut(deps.db, owner.userId, owner.kind, true, deps.now());
  return {
    kind: owner.kind,
    label: NOTIFICATION_LABELS[owner.kind].label,
    email: maskEmail(owner.email),
    unsubscribed: true,
  };
}

/** 'cara@example.com' → 'c***@example.com': enough to recognise, not to harvest. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
