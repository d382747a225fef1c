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
  doublePrecision,
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
    /**
     * Where the business is (degrees), for Discover (docs/decisions/0081, 0082); null until set.
     * `locationPrecision` says how precise ('exact', 'postcode', 'district', 'town') and
     * `locationSource` where it came from ('address', 'device', 'pin'); all four are set together.
     */
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    locationPrecision: text(),
    locationSource: text(),
    /** "Show my slots in Discover": on by default; off (or no location) keeps the business out of Discover. */
    discoverable: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('business_profiles_slug_unique').on(t.slug),
    check('business_profiles_slug_format', sql`${t.slug} ~ '^[a-z0-9-]{3,50}$'`),
    check('business_profiles_description_length', sql`char_length(${t.description}) <= 300`),
    check(
      'business_profiles_location_whole',
      sql`(${t.latitude} is null and ${t.longitude} is null and ${t.locationPrecision} is null and ${t.locationSource} is null)
        or (${t.latitude} between -90 and 90 and ${t.longitude} between -180 and 180
          and ${t.locationPrecision} in ('exact', 'postcode', 'district', 'town')
          and ${t.locationSource} in ('address', 'device', 'pin'))`,
    ),
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

/**
 * A bookable slot, in the business's local wall-clock time. For Discover (docs/decisions/0081) each
 * row also carries its start instant and, while its business shows in Discover, the business's
 * coordinates; the services keep both in step with the slot and the business.
 */
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
    /** The instant `date` + `startTime` happens in the business's time zone (shared/zoned-time zonedInstant). */
    startsAt: timestamp({ withTimezone: true }).notNull(),
    /** The business's coordinates while it shows in Discover (discoverable, with a location); else null. */
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('slots_business_date_start_unique').on(t.businessId, t.date, t.startTime),
    index('slots_date_idx').on(t.date),
    // The Discover search: open slots of listed businesses, read in start order, the bounding box
    // checked on the index entries before any row is fetched.
    index('slots_discovery_idx')
      .on(t.startsAt, t.latitude, t.longitude)
      .where(sql`is_booked = false and latitude is not null`),
    check('slots_location_whole', sql`(${t.latitude} is null) = (${t.longitude} is null)`),
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

/**
 * A customer's favourite business. `notify_new_slots`: "Email me when this business adds a slot"
 * (off by default); `last_alerted_at`: when its last email of new slots was written
 * (docs/decisions/0086).
 */
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
    notifyNewSlots: boolean().notNull().default(false),
    lastAlertedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('customer_likes_customer_business_unique').on(t.customerId, t.businessId),
    // Who hears of a business's new slot: its favourites with the alert on.
    index('customer_likes_notify_idx')
      .on(t.businessId)
      .where(sql`notify_new_slots`),
  ],
);

/**
 * A customer's saved Discover search (docs/decisions/0086): where (`place` as typed, or null for a
 * position the customer chose, rounded to about 100 m; `latitude`/`longitude` the typed place's
 * centre or that position; `label` what the alert is called: the place's name, or 'your
 * location'), `miles`, `window` (read from when a slot is added, in the customer's `timezone` for
 * 'today' and 'tomorrow'), `category` (null: every category). A paused alert matches nothing.
 * `last_emailed_at`: when its last email was written.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    place: text(),
    label: text().notNull(),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    miles: integer().notNull(),
    window: text().notNull(),
    category: text(),
    timezone: text().notNull(),
    paused: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastEmailedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('alerts_customer_idx').on(t.customerId, t.createdAt),
    // Which alerts a new slot may match: the active ones, by latitude band first.
    index('alerts_active_latitude_idx')
      .on(t.latitude, t.longitude)
      .where(sql`paused = false`),
    check('alerts_position', sql`${t.latitude} between -90 and 90 and ${t.longitude} between -180 and 180`),
    check('alerts_miles', sql`${t.miles} in (1, 2, 5, 10, 25)`),
    check('alerts_window', sql`${t.window} in ('1h', '2h', '4h', 'today', 'tomorrow')`),
  ],
);

/**
 * New slots an alert or a favourite (`alert_id` or `like_id`, exactly one) has not emailed yet
 * (docs/decisions/0086), written in the transaction that adds the slot. The next email of that
 * alert or favourite lists them and deletes them in its own transaction; a deleted slot takes its
 * rows with it. `distance_miles`: from the alert's centre (null for a favourite).
 */
export const alertMatches = pgTable(
  'alert_matches',
  {
    id: uuid().primaryKey().defaultRandom(),
    alertId: uuid().references(() => alerts.id, { onDelete: 'cascade' }),
    likeId: uuid().references(() => customerLikes.id, { onDelete: 'cascade' }),
    slotId: uuid()
      .notNull()
      .references(() => slots.id, { onDelete: 'cascade' }),
    distanceMiles: doublePrecision(),
    matchedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alert_matches_alert_slot_unique').on(t.alertId, t.slotId),
    uniqueIndex('alert_matches_like_slot_unique').on(t.likeId, t.slotId),
    index('alert_matches_slot_idx').on(t.slotId),
    index('alert_matches_matched_at_idx').on(t.matchedAt),
    check('alert_matches_one_subscription', sql`(${t.alertId} is null) <> (${t.likeId} is null)`),
  ],
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

/**
 * Address look-ups waiting to run (docs/decisions/0082): at most one per business, written when
 * the business asks to be located from its address (or saves a new one while located by it), run
 * by the background geocoder after the save, retried with backoff. `address` is the text to look
 * up; `status` 'pending' (due at `next_attempt_at`) or 'failed' (not found, or gave up after
 * retries; `last_error` says which).
 */
export const geocodeRequests = pgTable(
  'geocode_requests',
  {
    businessId: uuid()
      .primaryKey()
      .references(() => businessProfiles.id, { onDelete: 'cascade' }),
    address: text().notNull(),
    status: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    lastError: text(),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('geocode_requests_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    check('geocode_requests_status', sql`${t.status} in ('pending', 'failed')`),
  ],
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
