/**
 * The complete data model, with the invariants the database itself enforces:
 * - one slot per business per date + start time (unique index);
 * - at most one active (pending, confirmed or completed) booking per slot (partial unique index);
 * - a like is unique per customer + business;
 * - bookings outlive their slot, business and customer (ON DELETE SET NULL; the archived_* copies
 *   are filled by a trigger before a slot or business row goes, see drizzle/0001_*).
 *
 * Slot date and times are the business's local wall-clock values (`date`, 'HH:MM' text), never UTC.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { OpeningHours } from '../../../shared/opening-hours';

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};

export const roleEnum = pgEnum('user_role', ['business', 'customer']);
export const bookingStatusEnum = pgEnum('booking_status', ['pending', 'confirmed', 'cancelled', 'completed']);
export const tokenPurposeEnum = pgEnum('token_purpose', ['email_confirmation', 'password_reset', 'email_change']);
/** 'skipped': never sent on purpose (the recipient opted out, or the booking it was about is no longer active). */
export const outboxStatusEnum = pgEnum('outbox_status', ['pending', 'sent', 'failed', 'skipped']);

/** Accounts. `email` is stored lower-cased (enforced by a check). */
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    role: roleEnum().notNull().default('customer'),
    name: text().notNull(),
    emailVerifiedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

/** Cookie sessions (Lucia design): `id` is the hex SHA-256 of the 160-bit token in the cookie. */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** Single-use tokens sent by email; only the SHA-256 hash is stored. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: tokenPurposeEnum().notNull(),
    tokenHash: text().notNull(),
    newEmail: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('one_time_tokens_hash_unique').on(t.tokenHash),
    index('one_time_tokens_user_purpose_idx').on(t.userId, t.purpose),
  ],
);

export const businessProfiles = pgTable(
  'business_profiles',
  {
    id: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    businessName: text().notNull(),
    /** Optional in settings (saved as null when empty); sign-up asks for it. */
    address: text(),
    phoneNumber: text(),
    slug: text().notNull(),
    emailAddress: text(),
    description: text().notNull().default('Please add description'),
    businessType: text().notNull().default('Hair Salon'),
    openingHours: jsonb().$type<OpeningHours>().notNull().default({}),
    subscriptionStatus: text().notNull().default('active'),
    isEarlyAdopter: boolean().notNull().default(false),
    stripeCustomerId: text(),
    /** IANA zone in which the business's slot dates and times are read. */
    timezone: text().notNull().default('Europe/London'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('business_profiles_slug_unique').on(t.slug),
    check('business_profiles_slug_format', sql`${t.slug} ~ '^[a-z0-9-]{3,50}$'`),
    check('business_profiles_description_length', sql`char_length(${t.description}) <= 300`),
  ],
);

export const customerProfiles = pgTable('customer_profiles', {
  id: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  fullName: text().notNull().default('Customer'),
  email: text().notNull(),
  phoneNumber: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A bookable slot, in the business's local wall-clock time. */
export const slots = pgTable(
  'slots',
  {
    id: uuid().primaryKey().defaultRandom(),
    businessId: uuid()
      .notNull()
      .references(() => businessProfiles.id, { onDelete: 'cascade' }),
    date: date({ mode: 'string' }).notNull(),
    startTime: text().notNull(),
    endTime: text().notNull(),
    description: text().notNull(),
    isBooked: boolean().notNull().default(false),
    customerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    customerName: text(),
    customerEmail: text(),
    customerPhone: text(),
    addedToSystem: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('slots_business_date_start_unique').on(t.businessId, t.date, t.startTime),
    index('slots_date_idx').on(t.date),
    check('slots_start_time_format', sql`${t.startTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('slots_end_time_format', sql`${t.endTime} ~ '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$'`),
    check('slots_end_after_start', sql`${t.endTime} > ${t.startTime}`),
  ],
);

/**
 * A customer's request for a slot and its lifecycle (pending → confirmed | completed | cancelled).
 * The archived_* columns keep what the customer and business need once the slot or business is gone.
 */
export const bookings = pgTable(
  'bookings',
  {
    id: uuid().primaryKey().defaultRandom(),
    bookingDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
    status: bookingStatusEnum().notNull().default('pending'),
    notes: text(),
    slotId: uuid().references(() => slots.id, { onDelete: 'set null' }),
    customerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    businessId: uuid().references(() => businessProfiles.id, { onDelete: 'set null' }),
    declinedByBusiness: boolean().notNull().default(false),
    /** When the business accepted the request (confirm or approve); null if it never did. */
    confirmedAt: timestamp({ withTimezone: true }),
    archivedBusinessName: text(),
    archivedBusinessAddress: text(),
    /** The business's time zone, kept so an archived booking still falls in the right tab. */
    archivedBusinessTimezone: text(),
    archivedSlotDescription: text(),
    archivedSlotDate: date({ mode: 'string' }),
    archivedSlotStartTime: text(),
    archivedSlotEndTime: text(),
    /**
     * How many times the booking's calendar event was issued again while it was active: its slot
     * re-expressed in the business's new time zone, the instant kept (docs/decisions/0078). The
     * event's SEQUENCE is this, plus 1 once cancelled, so each version outranks every earlier one.
     */
    calendarRevision: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('bookings_one_active_per_slot')
      .on(t.slotId)
      .where(sql`status in ('pending', 'confirmed', 'completed')`),
    index('bookings_business_status_idx').on(t.businessId, t.status),
    index('bookings_customer_idx').on(t.customerId),
    // Every booking of a slot, whatever its status: the public page and a booking request ask
    // whether a slot has a pending or declined booking (the partial index above covers active
    // bookings only); without it that check scans every booking (bench/README.md).
    index('bookings_slot_idx').on(t.slotId),
  ],
);

/** A customer's favourite business. */
export const customerLikes = pgTable(
  'customer_likes',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    businessId: uuid()
      .notNull()
      .references(() => businessProfiles.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('customer_likes_customer_business_unique').on(t.customerId, t.businessId)],
);

/** An attachment of an outbox message (text content, e.g. an .ics file). */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/**
 * Transactional email outbox (docs/decisions/0005, 0050): written with the change, delivered by the
 * dispatcher. A row names its `template` and `props`; the dispatcher renders `html`, `text` and
 * `attachments` when it sends (empty until then). Booking notifications also carry their `kind`,
 * the recipient account `user_id` (whose preferences the dispatcher honours), the `booking_id`
 * they are about, a `dedupe_key` (unique: one message per event) and the hash of their one-click
 * unsubscribe token. Nothing is sent before `send_after` (reminders). An email intent (a request
 * the dispatcher resolves into a message or drops, docs/decisions/0033) has its intent kind
 * ('password_reset', 'email_confirmation'; server/email/outbox.ts) as `kind` and no subject or body.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    template: text(),
    props: jsonb().$type<Record<string, unknown>>(),
    html: text().notNull().default(''),
    text: text().notNull().default(''),
    attachments: jsonb().$type<OutboxAttachment[]>(),
    kind: text(),
    userId: uuid(),
    bookingId: uuid().references(() => bookings.id, { onDelete: 'set null' }),
    dedupeKey: text(),
    unsubscribeTokenHash: text(),
    status: outboxStatusEnum().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    lastError: text(),
    sendAfter: timestamp({ withTimezone: true }).notNull().defaultNow(),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    providerMessageId: text(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_outbox_pending_idx').on(t.status, t.nextAttemptAt),
    uniqueIndex('email_outbox_dedupe_key_unique').on(t.dedupeKey),
    uniqueIndex('email_outbox_unsubscribe_token_unique').on(t.unsubscribeTokenHash),
    index('email_outbox_booking_idx').on(t.bookingId),
  ],
);

/**
 * Booking notifications a user chose not to receive (docs/decisions/0054): one row per user and
 * notification kind; no row means the notification is sent. Account emails have no kind and
 * always go.
 */
export const notificationOptOuts = pgTable(
  'notification_opt_outs',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/**
 * A business's private calendar feed (docs/decisions/0052): only the SHA-256 of the token in the
 * feed URL is kept; regenerating replaces it, so the old URL stops working at once.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    businessId: uuid()
      .primaryKey()
      .references(() => businessProfiles.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash_unique').on(t.tokenHash)],
);

/**
 * Throttling counters (docs/decisions/0008): the table rate-limiter-flexible's RateLimiterDrizzle
 * reads and updates atomically (`insert ... on conflict (key) do update`). One row per limited key,
 * e.g. 'login_account:ann@example.test'; `points` counted in the window that ends at `expire`.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text().primaryKey(),
    points: integer().notNull().default(0),
    expire: timestamp({ withTimezone: true }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);

/**
 * Answers of retried user actions (docs/decisions/0034-idempotent-booking-actions.md): one row per
 * (user, key) written in the same transaction as the change it answers, so a rolled-back change
 * leaves no key. `procedure` and `request_hash` (SHA-256 of the canonical input) tell a retry from
 * a different request that reused the key; `response` is the JSON answer given the first time.
 * Rows older than 24 hours are ignored and swept.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: uuid().notNull(),
    procedure: text().notNull(),
    requestHash: text().notNull(),
    response: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);

/** Messages sent through /contact ('Get in Touch'). */
export const contactMessages = pgTable('contact_messages', {
  id: uuid().primaryKey().defaultRandom(),
  userId: uuid().references(() => users.id, { onDelete: 'set null' }),
  name: text().notNull(),
  email: text().notNull(),
  role: roleEnum(),
  businessName: text(),
  subject: text().notNull(),
  message: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type User = typeof users.$inferSelect;
export type Slot = typeof slots.$inferSelect;
export type Booking = typeof bookings.$inferSelect;
export type BusinessProfile = typeof businessProfiles.$inferSelect;
