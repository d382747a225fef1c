/**
 * Notifications (docs/decisions/0050, 0054, 0086): the email kinds each role receives (booking
 * emails, and a customer's alerts of new slots), the wording of their switches in Settings, and the
 * reminder's lead time. Account emails (confirmation, password reset, email change) have no kind
 * here: they always go.
 */

export const BUSINESS_NOTIFICATION_KINDS = ['booking_requested', 'request_withdrawn', 'customer_deleted'] as const;
export const CUSTOMER_NOTIFICATION_KINDS = [
  'request_received',
  'booking_confirmed',
  'booking_declined',
  'booking_cancelled',
  'booking_reminder',
  'booking_updated',
  'slot_alert',
  'favourite_slot',
] as const;

export type NotificationKind =
  (typeof BUSINESS_NOTIFICATION_KINDS)[number] | (typeof CUSTOMER_NOTIFICATION_KINDS)[number];

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  ...BUSINESS_NOTIFICATION_KINDS,
  ...CUSTOMER_NOTIFICATION_KINDS,
];

/** The kinds a role can receive, in the order Settings lists them. */
export function notificationKindsFor(role: 'business' | 'customer'): readonly NotificationKind[] {
  return role === 'business' ? BUSINESS_NOTIFICATION_KINDS : CUSTOMER_NOTIFICATION_KINDS;
}

/** Switch label and hint of each kind (Settings) and its name on the unsubscribe page. */
export const NOTIFICATION_LABELS: Record<NotificationKind, { label: string; description: string }> = {
  booking_requested: { label: 'New booking requests', description: 'A customer requests one of your slots.' },
  request_withdrawn: { label: 'Withdrawn requests', description: 'A customer withdraws a pending request.' },
  customer_deleted: {
    label: 'Customers who delete their account',
    description: 'A customer with a confirmed booking deletes their account.',
  },
  request_received: { label: 'Request sent', description: 'Your booking request has reached the business.' },
  booking_confirmed: {
    label: 'Booking confirmed',
    description: 'The business confirms your request (with a calendar file).',
  },
  booking_declined: { label: 'Request declined', description: 'The business cannot accept your request.' },
  booking_cancelled: {
    label: 'Appointment cancelled',
    description: 'A confirmed appointment is cancelled because the business closed its account.',
  },
  booking_reminder: {
    label: 'Appointment reminders',
    description: 'A reminder 2 hours before a confirmed appointment.',
  },
  booking_updated: {
    label: 'Time zone changes',
    description:
      'The business changes its time zone: your appointment or request keeps its time, shown in the new zone (with an updated calendar file).',
  },
  slot_alert: {
    label: 'Alerts for new slots',
    description: 'New slots that match an alert you saved on Discover (at most one email per alert every 15 minutes).',
  },
  favourite_slot: {
    label: 'New slots at favourite businesses',
    description:
      'A favourite business you asked to hear from adds a slot (at most one email per business every 15 minutes).',
  },
};

/** True for a known notification kind. */
export function isNotificationKind(kind: string): kind is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind);
}

/** Kinds that are only sent while the booking they are about is still confirmed or completed. */
export const KINDS_NEEDING_ACTIVE_BOOKING: readonly NotificationKind[] = ['booking_reminder'];

/** How long before a confirmed appointment's start the reminder is sent, in minutes. */
export const REMINDER_LEAD_MINUTES = 120;
