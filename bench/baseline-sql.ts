/**
 * The SQL the app issues for the bench scenarios, verbatim as drizzle renders it (captured with
 * bench/capture-sql.ts; run.ts re-captures it on every run and warns when these texts drift).
 * The baseline server (bench/baseline-server.ts) runs exactly these statements with postgres.js.
 */

/** Session look-up of a cookie token (server/features/auth/session.ts validateSessionToken). $1 id, $2 limit 1. */
export const SESSION_SQL =
  'select "sessions"."id", "sessions"."user_id", "sessions"."expires_at", "users"."id", "users"."email", "users"."name", "users"."role", "users"."email_verified_at", "business_profiles"."business_name", "business_profiles"."slug" from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" left join "business_profiles" on "business_profiles"."id" = "users"."id" where "sessions"."id" = $1 limit $2';

/** Renewal of a session with under 15 days left. $1 expires_at, $2 id. */
export const SESSION_RENEW_SQL = 'update "sessions" set "expires_at" = $1 where "sessions"."id" = $2';

/** Removal of an expired session. $1 id. */
export const SESSION_DELETE_SQL = 'delete from "sessions" where "sessions"."id" = $1';

const PUBLIC_BUSINESS_COLUMNS =
  'select "id", "business_name", "slug", "business_type", "description", "address", "phone_number", "email_address", "opening_hours", "timezone" from "business_profiles"';

/** Public business by slug, its account confirmed (loadPublicPage). $1 slug, $2 limit 1. */
export const BUSINESS_BY_SLUG_SQL =
  'select "business_profiles"."id", "business_profiles"."business_name", "business_profiles"."slug", "business_profiles"."business_type", "business_profiles"."description", "business_profiles"."address", "business_profiles"."phone_number", "business_profiles"."email_address", "business_profiles"."opening_hours", "business_profiles"."timezone" from "business_profiles" inner join "users" on "users"."id" = "business_profiles"."id" where ("business_profiles"."slug" = $1 and "users"."email_verified_at" is not null) limit $2';

/** Own business by id (getOwnBusiness). $1 id, $2 limit 1. */
export const BUSINESS_BY_ID_SQL = `${PUBLIC_BUSINESS_COLUMNS} where "business_profiles"."id" = $1 limit $2`;

const REQUESTABLE =
  '"slots"."is_booked" = $2 and "slots"."date" >= $3 and not exists (select 1 from "bookings" where ("bookings"."slot_id" = "slots"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $4 and "bookings"."declined_by_business" = $5))))';

/** Requestable slots of a business (loadPublicPage). $1 business, $2 false, $3 today, $4 'cancelled', $5 true. */
export const REQUESTABLE_SLOTS_SQL = `select "id", "date", "start_time", "end_time", "description" from "slots" where ("slots"."business_id" = $1 and (${REQUESTABLE})) order by "slots"."date" asc, "slots"."start_time" asc`;

/** Whether one slot is requestable (isSlotRequestable). $1 slot, $2..$5 as above, $6 limit 1. */
export const SLOT_REQUESTABLE_SQL = `select "id", "date", "start_time", "end_time", "description" from "slots" where ("slots"."id" = $1 and (${REQUESTABLE})) limit $6`;

/** The requested slot, locked (requestBooking). $1 slot, $2 limit 1. */
export const LOCK_SLOT_SQL =
  'select "slots"."id", "slots"."date", "slots"."start_time", "slots"."end_time", "slots"."description", "slots"."business_id", "business_profiles"."timezone" from "slots" inner join "business_profiles" on "business_profiles"."id" = "slots"."business_id" where "slots"."id" = $1 limit $2 for update of "slots"';

/** New pending booking. $1 booking_date, $2 'pending', $3 notes, $4 slot, $5 customer, $6 business, $7 created, $8 updated. */
export const INSERT_BOOKING_SQL =
  'insert into "bookings" ("id", "booking_date", "status", "notes", "slot_id", "customer_id", "business_id", "declined_by_business", "confirmed_at", "archived_business_name", "archived_business_address", "archived_business_timezone", "archived_slot_description", "archived_slot_date", "archived_slot_start_time", "archived_slot_end_time", "calendar_revision", "created_at", "updated_at") values (default, $1, $2, $3, $4, $5, $6, default, default, default, default, default, default, default, default, default, default, $7, $8) returning "id"';

/**
 * What the booking's emails say (loadBookingFacts): 0 id, 1 status, 2 updated_at, 3 calendar
 * revision, 4 business, 5 customer, 6 description, 7 date, 8 start, 9 end, 10 business name, 11
 * address, 12 slug, 13 zone, 14 business email, 15 contact, 16 customer email, 17 customer name.
 * $1 booking.
 */
export const BOOKING_FACTS_SQL =
  'select "bookings"."id", "bookings"."status", "bookings"."updated_at", "bookings"."calendar_revision", "bookings"."business_id", "bookings"."customer_id", coalesce("slots"."description", "bookings"."archived_slot_description", \'\'), coalesce("slots"."date"::text, "bookings"."archived_slot_date"::text), coalesce("slots"."start_time", "bookings"."archived_slot_start_time"), coalesce("slots"."end_time", "bookings"."archived_slot_end_time"), coalesce("business_profiles"."business_name", "bookings"."archived_business_name", \'the business\'), coalesce("business_profiles"."address", "bookings"."archived_business_address"), "business_profiles"."slug", coalesce("business_profiles"."timezone", "bookings"."archived_business_timezone", \'Europe/London\'), "business_user"."email", nullif(concat_ws(\', \', "business_profiles"."email_address", "business_profiles"."phone_number"), \'\'), "customer_user"."email", coalesce("customer_profiles"."full_name", "customer_user"."name", \'Customer\') from "bookings" left join "slots" on "slots"."id" = "bookings"."slot_id" left join "business_profiles" on "business_profiles"."id" = "bookings"."business_id" left join "users" "business_user" on "business_user"."id" = "bookings"."business_id" left join "users" "customer_user" on "customer_user"."id" = "bookings"."customer_id" left join "customer_profiles" on "customer_profiles"."id" = "bookings"."customer_id" where "bookings"."id" in ($1)';

/**
 * A queued notification (enqueueEmail with its notification fields). $1 to, $2 subject, $3
 * template, $4 props (json), $5 attachments, $6 kind, $7 user, $8 booking, $9 dedupe key, $10
 * unsubscribe token hash, $11 send_after, $12 next_attempt_at, $13 created_at.
 */
export const INSERT_NOTIFICATION_SQL =
  'insert into "email_outbox" ("id", "to_address", "subject", "template", "props", "html", "text", "attachments", "kind", "user_id", "booking_id", "dedupe_key", "unsubscribe_token_hash", "status", "attempts", "last_error", "send_after", "next_attempt_at", "provider_message_id", "sent_at", "created_at") values (default, $1, $2, $3, $4, default, default, $5, $6, $7, $8, $9, $10, default, default, default, $11, $12, default, default, $13) on conflict ("dedupe_key") do nothing';

/**
 * The business's zone with each of its slots (listBusinessSlots): no row without a profile, one row
 * with null slot columns without slots. $1 business.
 */
export const BUSINESS_SLOTS_SQL =
  'select "business_profiles"."timezone", "slots"."id", "slots"."date", "slots"."start_time", "slots"."end_time", "slots"."description", "slots"."is_booked", "slots"."added_to_system", "slots"."customer_name", "slots"."customer_email", "slots"."customer_phone" from "business_profiles" left join "slots" on "slots"."business_id" = "business_profiles"."id" where "business_profiles"."id" = $1 order by "slots"."date" asc, "slots"."start_time" asc';

/** Pending and declined flags per slot of the business (listBusinessSlots). $1 business. */
export const SLOT_FLAGS_SQL =
  'select "slot_id", bool_or("status" = \'pending\'), bool_or("status" = \'cancelled\' and "declined_by_business") from "bookings" where ("bookings"."business_id" = $1 and "bookings"."slot_id" is not null) group by "bookings"."slot_id"';

/** Pending requests of the business by slot (listBusinessSlots). $1 business, $2 'pending'. */
export const SLOT_PENDING_SQL =
  'select "bookings"."slot_id", "bookings"."id", coalesce("customer_profiles"."full_name", "users"."name", \'Customer\'), "users"."email" from "bookings" left join "users" on "users"."id" = "bookings"."customer_id" left join "customer_profiles" on "customer_profiles"."id" = "bookings"."customer_id" where ("bookings"."business_id" = $1 and "bookings"."status" = $2 and "bookings"."slot_id" is not null)';

/** Pending requests of a business (listBusinessRequests). $1 business, $2 'pending'. */
export const BUSINESS_REQUESTS_SQL =
  'select "bookings"."id", "bookings"."notes", "slots"."id", "slots"."date", "slots"."start_time", "slots"."end_time", "slots"."description", coalesce("customer_profiles"."full_name", "users"."name", \'Customer\'), "users"."email", "business_profiles"."timezone" from "bookings" inner join "slots" on "slots"."id" = "bookings"."slot_id" inner join "business_profiles" on "business_profiles"."id" = "bookings"."business_id" left join "users" on "users"."id" = "bookings"."customer_id" left join "customer_profiles" on "customer_profiles"."id" = "bookings"."customer_id" where ("bookings"."business_id" = $1 and "bookings"."status" = $2) order by "bookings"."created_at" desc';

const OUTBOX_DUE =
  '"email_outbox"."status" = $1 and "email_outbox"."next_attempt_at" <= $2 and "email_outbox"."send_after" <= $3';
/** An intent: its kind is $4 or $5. */
const OUTBOX_INTENT = '"email_outbox"."kind" in ($4, $5)';
/** A message: the negation of OUTBOX_INTENT, spelled out for a NULL kind. */
const OUTBOX_MESSAGE = '("email_outbox"."kind" not in ($4, $5) or "email_outbox"."kind" is null)';

/**
 * Due email intents, longest due first (the mail dispatcher's run starts with it: dueIntents). $1
 * 'pending', $2 and $3 now, $4 and $5 the intent kinds, $6 batch.
 */
export const OUTBOX_DUE_INTENTS_SQL = `select "id", "to_address", "kind", "attempts", "created_at" from "email_outbox" where (${OUTBOX_DUE} and ${OUTBOX_INTENT}) order by "email_outbox"."next_attempt_at" asc limit $6`;

/**
 * The dispatcher's claim of up to $6 due messages (claimDue): skips the unwanted ones, claims the
 * others until $10, returns the rows. $1 'pending', $2 and $3 now, $4 and $5 the intent kinds, $6
 * batch, $7 the kind needing an active booking, $8 'confirmed', $9 'completed', $10 claim until.
 */
export const OUTBOX_CLAIM_SQL = `with "due" as (select "id" as "due_id" from "email_outbox" where (${OUTBOX_DUE} and ${OUTBOX_MESSAGE}) order by "email_outbox"."next_attempt_at" asc limit $6 for update skip locked), "verdict" as (select "email_outbox"."id" as "verdict_id", case when "email_outbox"."kind" is null then null
  when "users"."id" is null then 'recipient account deleted'
  when "notification_opt_outs"."user_id" is not null then 'recipient opted out'
  when "email_outbox"."kind" in ($7) and "bookings"."id" is null then 'booking no longer active'
  else null end as "skip_reason" from "email_outbox" inner join "due" on "email_outbox"."id" = "due_id" left join "users" on "users"."id" = "email_outbox"."user_id" left join "notification_opt_outs" on ("notification_opt_outs"."user_id" = "email_outbox"."user_id" and "notification_opt_outs"."kind" = "email_outbox"."kind") left join "bookings" on ("bookings"."id" = "email_outbox"."booking_id" and "bookings"."status" in ($8, $9))) update "email_outbox" set "status" = case when "skip_reason" is null then "email_outbox"."status" else 'skipped' end, "attempts" = "email_outbox"."attempts" + case when "skip_reason" is null then 1 else 0 end, "last_error" = coalesce("skip_reason", "email_outbox"."last_error"), "next_attempt_at" = case when "skip_reason" is null then $10 else "email_outbox"."next_attempt_at" end from "verdict" where "email_outbox"."id" = "verdict_id" returning "email_outbox"."id", "email_outbox"."to_address", "email_outbox"."subject", "email_outbox"."template", "email_outbox"."props", "email_outbox"."html", "email_outbox"."text", "email_outbox"."attachments", "email_outbox"."kind", "email_outbox"."user_id", "email_outbox"."booking_id", "email_outbox"."dedupe_key", "email_outbox"."unsubscribe_token_hash", "email_outbox"."status", "email_outbox"."attempts", "email_outbox"."last_error", "email_outbox"."send_after", "email_outbox"."next_attempt_at", "email_outbox"."provider_message_id", "email_outbox"."sent_at", "email_outbox"."created_at"`;

/**
 * Messages sent (markSent): $1 'sent', $2 null (last error), $3 sent at, $4 JSON text of
 * `[{ id, provider_message_id, html, text }]`.
 */
export const OUTBOX_MARK_SENT_SQL =
  'update "email_outbox" set "html" = x.html, "text" = x.text, "status" = $1, "last_error" = $2, "provider_message_id" = x.provider_message_id, "sent_at" = $3 from jsonb_to_recordset($4::text::jsonb) as x(id uuid, provider_message_id text, html text, text text) where "email_outbox"."id" = x.id';

/**
 * Discover search, soonest first, over the small cells (searchSlots; docs/decisions/0108). $1 the
 * covering cells (comma-separated); $2-$26 the search (Earth radius, centre latitude twice, centre
 * longitude, false, now, lower bound, end of window, bounding box, radius, latitude twice,
 * longitude, miles, cursor start twice, radius, latitude twice, longitude, cursor distance and
 * id); $27 a cell's cut (limit, with ties), $28 'cancelled', $29 true, $30 limit, $31 and $32
 * limit; $33-$57 the search again (the exact read of a cell whose cut fell short), $58
 * 'cancelled', $59 true, $60-$63 limit.
 */
export const DISCOVERY_SOONEST_SQL =
  'select "slots"."id", "slots"."business_id", "slots"."date", "slots"."start_time", "slots"."end_time", "slots"."description", "slots"."starts_at", "slots"."latitude", "slots"."longitude", "business_profiles"."business_name", "business_profiles"."slug", "business_profiles"."business_type", "business_profiles"."timezone", "distance" from (select "near"."id", "near"."starts_at", "distance" from unnest(string_to_array($1::text, \',\')::int[]) as "cells"("cell") cross join lateral (with "cut" as (select "id", "starts_at", ($2::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("latitude" - $3::float8) / 2), 2)\n    + cos(radians($4::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - $5::float8) / 2), 2))))) as "distance" from "slots" where ("slots"."small_cell" = "cells"."cell" and "slots"."is_booked" = $6 and "slots"."latitude" is not null and "slots"."starts_at" > $7 and "slots"."starts_at" >= $8 and "slots"."starts_at" < $9 and "slots"."latitude" between $10::float8 and $11::float8 and "slots"."longitude" between $12::float8 and $13::float8 and ($14::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $15::float8) / 2), 2)\n    + cos(radians($16::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $17::float8) / 2), 2))))) <= $18::float8 and ("slots"."starts_at" > $19 or ("slots"."starts_at" = $20 and (($21::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $22::float8) / 2), 2)\n    + cos(radians($23::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $24::float8) / 2), 2))))), "slots"."id") > ($25::float8, $26::uuid)))) order by "slots"."starts_at" fetch first $27 rows with ties), "firsts" as (select "id", "starts_at", "distance" from (select "id", "starts_at", "distance" from "cut" order by "cut"."starts_at", "distance", "cut"."id") "ordered" where not exists (select 1 from "bookings" where ("bookings"."slot_id" = "ordered"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $28 and "bookings"."declined_by_business" = $29)))) order by "ordered"."starts_at", "distance", "ordered"."id" limit $30) select "id", "starts_at", "distance" from ((select "id", "starts_at", "distance" from "firsts" where not ((select count(*) from "firsts") < $31 and (select count(*) from "cut") >= $32)) union all (select "id", "starts_at", "distance" from (select "id", "starts_at", ($33::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("latitude" - $34::float8) / 2), 2)\n    + cos(radians($35::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - $36::float8) / 2), 2))))) as "distance" from "slots" where (("slots"."small_cell" = "cells"."cell" and "slots"."is_booked" = $37 and "slots"."latitude" is not null and "slots"."starts_at" > $38 and "slots"."starts_at" >= $39 and "slots"."starts_at" < $40 and "slots"."latitude" between $41::float8 and $42::float8 and "slots"."longitude" between $43::float8 and $44::float8 and ($45::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $46::float8) / 2), 2)\n    + cos(radians($47::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $48::float8) / 2), 2))))) <= $49::float8 and ("slots"."starts_at" > $50 or ("slots"."starts_at" = $51 and (($52::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $53::float8) / 2), 2)\n    + cos(radians($54::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $55::float8) / 2), 2))))), "slots"."id") > ($56::float8, $57::uuid)))) and not exists (select 1 from "bookings" where ("bookings"."slot_id" = "slots"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $58 and "bookings"."declined_by_business" = $59))))) order by "slots"."starts_at" fetch first $60 rows with ties) "exact" where ((select count(*) from "firsts") < $61 and (select count(*) from "cut") >= $62))) "both") "near" order by "near"."starts_at", "distance", "near"."id" limit $63) "page" inner join "slots" on "slots"."id" = "page"."id" inner join "business_profiles" on "business_profiles"."id" = "slots"."business_id" order by "page"."starts_at", "distance", "page"."id"';

/**
 * Soonest with a category, over the small cells: as DISCOVERY_SOONEST_SQL, each cell read per label
 * (docs/decisions/0114), with $2 the labels (newline-separated) and every later parameter one on.
 */
export const DISCOVERY_SOONEST_CATEGORY_SQL =
  'select "slots"."id", "slots"."business_id", "slots"."date", "slots"."start_time", "slots"."end_time", "slots"."description", "slots"."starts_at", "slots"."latitude", "slots"."longitude", "business_profiles"."business_name", "business_profiles"."slug", "business_profiles"."business_type", "business_profiles"."timezone", "distance" from (select "near"."id", "near"."starts_at", "distance" from unnest(string_to_array($1::text, \',\')::int[]) as "cells"("cell"), unnest(string_to_array($2::text, chr(10))) as "labels"("label") cross join lateral (with "cut" as (select "id", "starts_at", ($3::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("latitude" - $4::float8) / 2), 2)\n    + cos(radians($5::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - $6::float8) / 2), 2))))) as "distance" from "slots" where ("slots"."small_cell" = "cells"."cell" and "slots"."business_category" = "labels"."label" and "slots"."is_booked" = $7 and "slots"."latitude" is not null and "slots"."starts_at" > $8 and "slots"."starts_at" >= $9 and "slots"."starts_at" < $10 and "slots"."latitude" between $11::float8 and $12::float8 and "slots"."longitude" between $13::float8 and $14::float8 and ($15::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $16::float8) / 2), 2)\n    + cos(radians($17::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $18::float8) / 2), 2))))) <= $19::float8 and ("slots"."starts_at" > $20 or ("slots"."starts_at" = $21 and (($22::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $23::float8) / 2), 2)\n    + cos(radians($24::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $25::float8) / 2), 2))))), "slots"."id") > ($26::float8, $27::uuid)))) order by "slots"."starts_at" fetch first $28 rows with ties), "firsts" as (select "id", "starts_at", "distance" from (select "id", "starts_at", "distance" from "cut" order by "cut"."starts_at", "distance", "cut"."id") "ordered" where not exists (select 1 from "bookings" where ("bookings"."slot_id" = "ordered"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $29 and "bookings"."declined_by_business" = $30)))) order by "ordered"."starts_at", "distance", "ordered"."id" limit $31) select "id", "starts_at", "distance" from ((select "id", "starts_at", "distance" from "firsts" where not ((select count(*) from "firsts") < $32 and (select count(*) from "cut") >= $33)) union all (select "id", "starts_at", "distance" from (select "id", "starts_at", ($34::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("latitude" - $35::float8) / 2), 2)\n    + cos(radians($36::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - $37::float8) / 2), 2))))) as "distance" from "slots" where (("slots"."small_cell" = "cells"."cell" and "slots"."business_category" = "labels"."label" and "slots"."is_booked" = $38 and "slots"."latitude" is not null and "slots"."starts_at" > $39 and "slots"."starts_at" >= $40 and "slots"."starts_at" < $41 and "slots"."latitude" between $42::float8 and $43::float8 and "slots"."longitude" between $44::float8 and $45::float8 and ($46::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $47::float8) / 2), 2)\n    + cos(radians($48::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $49::float8) / 2), 2))))) <= $50::float8 and ("slots"."starts_at" > $51 or ("slots"."starts_at" = $52 and (($53::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $54::float8) / 2), 2)\n    + cos(radians($55::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $56::float8) / 2), 2))))), "slots"."id") > ($57::float8, $58::uuid)))) and not exists (select 1 from "bookings" where ("bookings"."slot_id" = "slots"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $59 and "bookings"."declined_by_business" = $60))))) order by "slots"."starts_at" fetch first $61 rows with ties) "exact" where ((select count(*) from "firsts") < $62 and (select count(*) from "cut") >= $63))) "both") "near" order by "near"."starts_at", "distance", "near"."id" limit $64) "page" inner join "slots" on "slots"."id" = "page"."id" inner join "business_profiles" on "business_profiles"."id" = "slots"."business_id" order by "page"."starts_at", "distance", "page"."id"';

/**
 * Discover search, nearest first, over the small cells. $1 the covering cells, $2/$14/$19 Earth
 * radius, $3/$4/$15/$16/$20/$21 centre latitude, $5/$17/$22 centre longitude, $6 false, $7 now, $8
 * lower bound, $9 end of window, $10-$13 bounding box, $18 miles, $23 cursor distance, $24 cursor
 * start, $25 cursor id, $26 'cancelled', $27 true, $28 a cell's rows, $29 limit.
 */
export const DISCOVERY_NEAREST_SQL =
  'select "slots"."id", "slots"."business_id", "slots"."date", "slots"."start_time", "slots"."end_time", "slots"."description", "slots"."starts_at", "slots"."latitude", "slots"."longitude", "business_profiles"."business_name", "business_profiles"."slug", "business_profiles"."business_type", "business_profiles"."timezone", "distance" from (select "near"."id", "near"."starts_at", "distance" from unnest(string_to_array($1::text, \',\')::int[]) as "cells"("cell") cross join lateral (select "id", "starts_at", "distance" from (select "id", "starts_at", ($2::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("latitude" - $3::float8) / 2), 2)\n    + cos(radians($4::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - $5::float8) / 2), 2))))) as "distance" from "slots" where ("slots"."small_cell" = "cells"."cell" and "slots"."is_booked" = $6 and "slots"."latitude" is not null and "slots"."starts_at" > $7 and "slots"."starts_at" >= $8 and "slots"."starts_at" < $9 and "slots"."latitude" between $10::float8 and $11::float8 and "slots"."longitude" between $12::float8 and $13::float8 and ($14::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $15::float8) / 2), 2)\n    + cos(radians($16::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $17::float8) / 2), 2))))) <= $18::float8 and (($19::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $20::float8) / 2), 2)\n    + cos(radians($21::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $22::float8) / 2), 2))))), "slots"."starts_at", "slots"."id") > ($23::float8, $24, $25::uuid)) order by "distance", "slots"."starts_at", "slots"."id") "ordered" where not exists (select 1 from "bookings" where ("bookings"."slot_id" = "ordered"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $26 and "bookings"."declined_by_business" = $27)))) order by "distance", "ordered"."starts_at", "ordered"."id" limit $28) "near" order by "distance", "near"."starts_at", "near"."id" limit $29) "page" inner join "slots" on "slots"."id" = "page"."id" inner join "business_profiles" on "business_profiles"."id" = "slots"."business_id" order by "distance", "page"."starts_at", "page"."id"';

/** As DISCOVERY_NEAREST_SQL with a category: $2 the labels (newline-separated), every later parameter one on. */
export const DISCOVERY_NEAREST_CATEGORY_SQL =
  'select "slots"."id", "slots"."business_id", "slots"."date", "slots"."start_time", "slots"."end_time", "slots"."description", "slots"."starts_at", "slots"."latitude", "slots"."longitude", "business_profiles"."business_name", "business_profiles"."slug", "business_profiles"."business_type", "business_profiles"."timezone", "distance" from (select "near"."id", "near"."starts_at", "distance" from unnest(string_to_array($1::text, \',\')::int[]) as "cells"("cell"), unnest(string_to_array($2::text, chr(10))) as "labels"("label") cross join lateral (select "id", "starts_at", "distance" from (select "id", "starts_at", ($3::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("latitude" - $4::float8) / 2), 2)\n    + cos(radians($5::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - $6::float8) / 2), 2))))) as "distance" from "slots" where ("slots"."small_cell" = "cells"."cell" and "slots"."business_category" = "labels"."label" and "slots"."is_booked" = $7 and "slots"."latitude" is not null and "slots"."starts_at" > $8 and "slots"."starts_at" >= $9 and "slots"."starts_at" < $10 and "slots"."latitude" between $11::float8 and $12::float8 and "slots"."longitude" between $13::float8 and $14::float8 and ($15::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $16::float8) / 2), 2)\n    + cos(radians($17::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $18::float8) / 2), 2))))) <= $19::float8 and (($20::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $21::float8) / 2), 2)\n    + cos(radians($22::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $23::float8) / 2), 2))))), "slots"."starts_at", "slots"."id") > ($24::float8, $25, $26::uuid)) order by "distance", "slots"."starts_at", "slots"."id") "ordered" where not exists (select 1 from "bookings" where ("bookings"."slot_id" = "ordered"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $27 and "bookings"."declined_by_business" = $28)))) order by "distance", "ordered"."starts_at", "ordered"."id" limit $29) "near" order by "distance", "near"."starts_at", "near"."id" limit $30) "page" inner join "slots" on "slots"."id" = "page"."id" inner join "business_profiles" on "business_profiles"."id" = "slots"."business_id" order by "distance", "page"."starts_at", "page"."id"';

/**
 * Soonest's first instant over the small cells (firstInstantPage; docs/decisions/0108): `t0` and
 * `reach`. $1 the covering cells, $2 false, $3 now, $4 lower bound, $5 end of window, $6-$9 the box,
 * $10 1, $11 the centre's small cell, $12-$36 the search at t0 (as in DISCOVERY_SOONEST_SQL's
 * $2-$26), $37 'cancelled', $38 true, $39 1, $40 the page's limit minus one.
 */
export const DISCOVERY_FIRST_INSTANT_SQL =
  'select "t0", "reach" from (select min("probe"."starts_at") as "t0" from unnest(string_to_array($1::text, \',\')::int[]) as "cells"("cell") cross join lateral (select "starts_at" from "slots" where ("slots"."small_cell" = "cells"."cell" and "slots"."is_booked" = $2 and "slots"."latitude" is not null and "slots"."starts_at" > $3 and "slots"."starts_at" >= $4 and "slots"."starts_at" < $5 and "slots"."latitude" between $6::float8 and $7::float8 and "slots"."longitude" between $8::float8 and $9::float8) order by "slots"."starts_at" limit $10) "probe") "first" left join lateral (select "distance" as "reach" from (select "at_first"."id", "distance" from unnest(array[$11::int]) as "cells"("cell") cross join lateral (select "id", "starts_at", ($12::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("latitude" - $13::float8) / 2), 2)\n    + cos(radians($14::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - $15::float8) / 2), 2))))) as "distance" from "slots" where ("slots"."small_cell" = "cells"."cell" and "slots"."is_booked" = $16 and "slots"."latitude" is not null and "slots"."starts_at" > $17 and "slots"."starts_at" >= $18 and "slots"."starts_at" < $19 and "slots"."latitude" between $20::float8 and $21::float8 and "slots"."longitude" between $22::float8 and $23::float8 and ($24::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $25::float8) / 2), 2)\n    + cos(radians($26::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $27::float8) / 2), 2))))) <= $28::float8 and ("slots"."starts_at" > $29 or ("slots"."starts_at" = $30 and (($31::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $32::float8) / 2), 2)\n    + cos(radians($33::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $34::float8) / 2), 2))))), "slots"."id") > ($35::float8, $36::uuid))) and "slots"."starts_at" = "t0")) "at_first" order by "distance", "at_first"."id") "ordered" where not exists (select 1 from "bookings" where ("bookings"."slot_id" = "ordered"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $37 and "bookings"."declined_by_business" = $38)))) order by "distance", "ordered"."id" limit $39 offset $40) "seed" on true';

/**
 * Soonest's page at its first instant, nearest first. $1 the small cells of the reach's box, $2-$26
 * the search (as in DISCOVERY_SOONEST_SQL, the box and miles those of the reach), $27 t0, $28
 * 'cancelled', $29 true, $30 limit.
 */
export const DISCOVERY_FIRST_INSTANT_PAGE_SQL =
  'select "slots"."id", "slots"."business_id", "slots"."date", "slots"."start_time", "slots"."end_time", "slots"."description", "slots"."starts_at", "slots"."latitude", "slots"."longitude", "business_profiles"."business_name", "business_profiles"."slug", "business_profiles"."business_type", "business_profiles"."timezone", "distance" from (select "id", "starts_at", "distance" from (select "at_first"."id", "at_first"."starts_at", "distance" from unnest(string_to_array($1::text, \',\')::int[]) as "cells"("cell") cross join lateral (select "id", "starts_at", ($2::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("latitude" - $3::float8) / 2), 2)\n    + cos(radians($4::float8)) * cos(radians("latitude")) * power(sin(radians("longitude" - $5::float8) / 2), 2))))) as "distance" from "slots" where ("slots"."small_cell" = "cells"."cell" and "slots"."is_booked" = $6 and "slots"."latitude" is not null and "slots"."starts_at" > $7 and "slots"."starts_at" >= $8 and "slots"."starts_at" < $9 and "slots"."latitude" between $10::float8 and $11::float8 and "slots"."longitude" between $12::float8 and $13::float8 and ($14::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $15::float8) / 2), 2)\n    + cos(radians($16::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $17::float8) / 2), 2))))) <= $18::float8 and ("slots"."starts_at" > $19 or ("slots"."starts_at" = $20 and (($21::float8 * 2 * asin(least(1, sqrt(\n    power(sin(radians("slots"."latitude" - $22::float8) / 2), 2)\n    + cos(radians($23::float8)) * cos(radians("slots"."latitude")) * power(sin(radians("slots"."longitude" - $24::float8) / 2), 2))))), "slots"."id") > ($25::float8, $26::uuid))) and "slots"."starts_at" = $27)) "at_first" order by "distance", "at_first"."id") "ordered" where not exists (select 1 from "bookings" where ("bookings"."slot_id" = "ordered"."id" and ("bookings"."status" in (\'pending\', \'confirmed\', \'completed\') or ("bookings"."status" = $28 and "bookings"."declined_by_business" = $29)))) order by "distance", "ordered"."id" limit $30) "page" inner join "slots" on "slots"."id" = "page"."id" inner join "business_profiles" on "business_profiles"."id" = "slots"."business_id" order by "page"."starts_at", "distance", "page"."id"';

/** A statement over the small cells as it reads over the large ones (10 and 25 miles). */
export const overLargeCells = (text: string) => text.replaceAll('"small_cell"', '"large_cell"');

/** DISCOVERY_FIRST_INSTANT_SQL for 10 and 25 miles: t0 over the large cells, the seed still in the centre's small cell. */
export const firstInstantOverLargeCells = () => DISCOVERY_FIRST_INSTANT_SQL.replace('"small_cell"', '"large_cell"');

/** What the baseline runs per scenario, in the shape of `CapturedSql` (capture-sql.ts); run.ts compares it with the app's. */
export function baselineStatements() {
  return {
    session: [SESSION_SQL],
    bySlug: [BUSINESS_BY_SLUG_SQL, REQUESTABLE_SLOTS_SQL],
    request: [
      LOCK_SLOT_SQL,
      SLOT_REQUESTABLE_SQL,
      INSERT_BOOKING_SQL,
      BOOKING_FACTS_SQL,
      INSERT_NOTIFICATION_SQL,
      INSERT_NOTIFICATION_SQL,
    ],
    listMine: [BUSINESS_SLOTS_SQL, SLOT_FLAGS_SQL, SLOT_PENDING_SQL],
    requests: [BUSINESS_REQUESTS_SQL],
    dispatch: [OUTBOX_DUE_INTENTS_SQL, OUTBOX_CLAIM_SQL, OUTBOX_MARK_SENT_SQL],
    discovery: [
      DISCOVERY_FIRST_INSTANT_SQL,
      DISCOVERY_SOONEST_SQL,
      firstInstantOverLargeCells(),
      overLargeCells(DISCOVERY_SOONEST_SQL),
      ...[DISCOVERY_SOONEST_CATEGORY_SQL, DISCOVERY_NEAREST_SQL, DISCOVERY_NEAREST_CATEGORY_SQL].flatMap((text) => [
        text,
        overLargeCells(text),
      ]),
      DISCOVERY_FIRST_INSTANT_PAGE_SQL,
    ],
  };
}
