/**
 * The data model. Bookings outlive their slot, business and customer: a trigger fills the archived_*
 * copies before a slot or business row goes (drizzle/0001_*). Slot dates and times are the business's
 * local wall-clock values (`date`, 'HH:MM' text), never UTC.
 */
import { sql, type SQL } from 'drizzle-orm';
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
/** 'skipped': not sent on purpose (the recipient opted out, or its booking is not active). */
export const outboxStatusEnum = pgEnum('outbox_status', ['pending', 'sent', 'failed', 'skipped']);

/** Accounts; `email` is lower-cased. */
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
    // Unconfirmed sign-ups by age, for their removal (server/features/auth/unconfirmed-sign-ups.ts).
    index('users_unconfirmed_created_at_idx')
      .on(t.createdAt)
      .where(sql`${t.emailVerifiedAt} is null`),
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

/**
 * Business usernames held for a sign-up that created no account (its email was registered), as long
 * as an unconfirmed account holds its own: the username's availability then tells nothing about the
 * email (server/features/businesses/slug-holds.ts).
 */
export const slugHolds = pgTable('slug_holds', {
  slug: text().primaryKey(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});

export const businessProfiles = pgTable(
  'business_profiles',
  {
    id: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    businessName: text().notNull(),
    /** Null when empty; only sign-up requires it. */
    address: text(),
    phoneNumber: text(),
    slug: text().notNull(),
    emailAddress: text(),
    description: text().notNull().default('Please add description'),
    businessType: text().notNull().default('Hair Salon'),
    openingHours: jsonb().$type<OpeningHours>().notNull().default({}),
    /**
     * Stripe's subscription status once the business has a Stripe subscription (trialing, active,
     * past_due, canceled, unpaid, incomplete, ...); 'active' before (docs/decisions/0100).
     */
    subscriptionStatus: text().notNull().default('active'),
    /** Joined before billing started: £9.95 a month for life (set when billing starts). */
    isEarlyAdopter: boolean().notNull().default(false),
    stripeCustomerId: text(),
    /** The Stripe subscription the columns below copy (from webhooks); null: none yet. */
    stripeSubscriptionId: text(),
    /** End of the free period: the app's own trial before a Stripe subscription, else Stripe's `trial_end`. */
    trialEndsAt: timestamp({ withTimezone: true }),
    currentPeriodEnd: timestamp({ withTimezone: true }),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    /** When the subscription became past_due: the grace period counts from here. */
    pastDueSince: timestamp({ withTimezone: true }),
    /** `created` of the newest Stripe event applied to these columns; an older one changes nothing. */
    subscriptionEventAt: timestamp({ withTimezone: true }),
    /** Whether billing lets the business show in Discover and alerts (kept by the billing sweep). */
    billingListed: boolean().notNull().default(true),
    /** IANA zone in which the business's slot dates and times are read. */
    timezone: text().notNull().default('Europe/London'),
    /** Where the business is, in degrees, for Discover (docs/decisions/0081, 0082); null until set. */
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    locationPrecision: text(),
    locationSource: text(),
    /** "Show my slots in Discover"; without a location the business stays out of Discover anyway. */
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
 * Row times `size` plus column of a `size` by `size` latitude/longitude grid: the same arithmetic,
 * rounding alike, as `cellOf` (server/features/discovery/cells.ts).
 */
function cellSql(size: number): SQL {
  const n = sql.raw(String(size));
  const last = sql.raw(String(size - 1));
  // least() skips nulls: an unlisted slot (no coordinates) must have no cell, not the last one.
  return sql`case when latitude is not null and longitude is not null then least(${last}, floor((latitude + 90) * ${n} / 180))::int * ${n} + least(${last}, floor((longitude + 180) * ${n} / 360))::int end`;
}

/**
 * A bookable slot. For Discover (docs/decisions/0081) it also carries its start instant and, while its
 * business shows in Discover, the business's coordinates; the services keep both in step.
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
    /** `date` + `startTime` in the business's time zone (zonedInstant). */
    startsAt: timestamp({ withTimezone: true }).notNull(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    /**
     * The business's category label (`businessTypeLabel`) while it shows in Discover, like the
     * coordinates (null when unlisted): the category searches' index reads only its own (docs/decisions/0114).
     */
    businessCategory: text(),
    /** Discover's place cells of the listed coordinates (server/features/discovery/cells.ts; null when unlisted). */
    smallCell: integer().generatedAlwaysAs(cellSql(4096)),
    largeCell: integer().generatedAlwaysAs(cellSql(1024)),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('slots_business_date_start_unique').on(t.businessId, t.date, t.startTime),
    index('slots_date_idx').on(t.date),
    // Discover reads the open slots of each cell near the search and orders them on the index
    // entries alone (start, place, id) before fetching rows (docs/decisions/0108).
    index('slots_discovery_small_idx')
      .on(t.smallCell, t.startsAt, t.latitude, t.longitude, t.id)
      .where(sql`is_booked = false and latitude is not null`),
    index('slots_discovery_large_idx')
      .on(t.largeCell, t.startsAt, t.latitude, t.longitude, t.id)
      .where(sql`is_booked = false and latitude is not null`),
    // A category search reads only its category's entries of each cell (docs/decisions/0114).
    index('slots_discovery_small_category_idx')
      .on(t.smallCell, t.businessCategory, t.startsAt, t.latitude, t.longitude, t.id)
      .where(sql`is_booked = false and latitude is not null`),
    index('slots_discovery_large_category_idx')
      .on(t.largeCell, t.businessCategory, t.startsAt, t.latitude, t.longitude, t.id)
      .where(sql`is_booked = false and latitude is not null`),
    check(
      'slots_location_whole',
      sql`(${t.latitude} is null) = (${t.longitude} is null) and (${t.latitude} is null) = (${t.businessCategory} is null)`,
    ),
    check('slots_start_time_format', sql`${t.startTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('slots_end_time_format', sql`${t.endTime} ~ '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$'`),
    check('slots_end_after_start', sql`${t.endTime} > ${t.startTime}`),
  ],
);

/** A customer's request for a slot: pending → confirmed | completed | cancelled. */
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
    /** When the business accepted the request; null if it never did. */
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
     * Times the calendar event was reissued while active, for a time zone change (docs/decisions/0078).
     * The event's SEQUENCE is this, plus 1 once cancelled, so each version outranks every earlier one.
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
    // Whether a slot has a pending or declined booking: the partial index above covers active ones only.
    index('bookings_slot_idx').on(t.slotId),
  ],
);

/** A customer's favourite business; `notify_new_slots`: email me its new slots (docs/decisions/0086). */
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
    index('customer_likes_notify_idx')
      .on(t.businessId)
      .where(sql`notify_new_slots`),
  ],
);

/**
 * A customer's saved Discover search (docs/decisions/0086). `place`: as typed, or null for a chosen
 * position (rounded to about 100 m). `window` is read from when a slot is added, in `timezone`.
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
    index('alerts_active_latitude_idx')
      .on(t.latitude, t.longitude)
      .where(sql`paused = false`),
    check('alerts_position', sql`${t.latitude} between -90 and 90 and ${t.longitude} between -180 and 180`),
    check('alerts_miles', sql`${t.miles} in (1, 2, 5, 10, 25)`),
    check('alerts_window', sql`${t.window} in ('1h', '2h', '4h', 'today', 'tomorrow')`),
  ],
);

/**
 * New slots an alert or favourite has not emailed yet (docs/decisions/0086), written with the slot and
 * deleted by the email that lists them. `distance_miles`: from the alert's centre; null for a favourite.
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

/** Text content, e.g. an .ics file. */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/**
 * Transactional email outbox (docs/decisions/0005, 0050), written with the change. The dispatcher
 * renders `html`, `text` and `attachments` from `template` and `props` when it sends (empty until
 * then), honouring `user_id`'s preferences. An email intent (docs/decisions/0033) has its intent kind
 * as `kind` and no subject or body.
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

/** Booking notifications a user chose not to receive (docs/decisions/0054). Account emails always go. */
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

/** A business's private calendar feed (docs/decisions/0052); only the token's SHA-256 is kept. */
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
 * Throttling counters of rate-limiter-flexible's RateLimiterDrizzle (docs/decisions/0008), one row per
 * key, e.g. 'login_account:ann@example.test'; `points` count in the window that ends at `expire`.
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
 * Answers of retried user actions (docs/decisions/0034), written in the transaction of the change, so a
 * rolled-back change leaves no key. `request_hash` tells a retry from a different request reusing the key.
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
 * Address look-ups for the background geocoder (docs/decisions/0082), at most one per business.
 * 'failed': not found, or gave up after retries (`last_error` says which).
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

/** When billing started (docs/decisions/0100): one row, written by the first start with billing on. */
export const billingStart = pgTable(
  'billing_start',
  {
    id: integer().primaryKey().default(1),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    /** When the businesses created before `startsAt` were made early adopters with their trial. */
    appliedAt: timestamp({ withTimezone: true }),
  },
  (t) => [check('billing_start_one_row', sql`${t.id} = 1`)],
);

/** Stripe webhook events by id: each is applied once, a replay changes nothing (docs/decisions/0100). */
export const stripeEvents = pgTable('stripe_events', {
  id: text().primaryKey(),
  type: text().notNull(),
  /** The event's own `created`. */
  createdAt: timestamp({ withTimezone: true }).notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  businessId: uuid(),
  /** What the handler did: 'applied', 'stale', 'ignored' or 'unknown_customer'. */
  outcome: text().notNull(),
});

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
