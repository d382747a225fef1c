ALTER TABLE "bookings" ADD COLUMN "archived_business_timezone" text;--> statement-breakpoint
-- The archive triggers of migration 0001 also keep the business's time zone, so a booking whose
-- business is gone still falls in the customer's right tab ("past" is the business's local time).
CREATE OR REPLACE FUNCTION archive_bookings_of_slot() RETURNS trigger AS $$
BEGIN
  UPDATE bookings b SET
    archived_slot_description = OLD.description,
    archived_slot_date = OLD.date,
    archived_slot_start_time = OLD.start_time,
    archived_slot_end_time = OLD.end_time,
    archived_business_name = COALESCE(
      (SELECT bp.business_name FROM business_profiles bp WHERE bp.id = OLD.business_id),
      b.archived_business_name),
    archived_business_address = COALESCE(
      (SELECT bp.address FROM business_profiles bp WHERE bp.id = OLD.business_id),
      b.archived_business_address),
    archived_business_timezone = COALESCE(
      (SELECT bp.timezone FROM business_profiles bp WHERE bp.id = OLD.business_id),
      b.archived_business_timezone),
    updated_at = now()
  WHERE b.slot_id = OLD.id;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION archive_bookings_of_business() RETURNS trigger AS $$
BEGIN
  UPDATE bookings b SET
    archived_business_name = OLD.business_name,
    archived_business_address = OLD.address,
    archived_business_timezone = OLD.timezone,
    updated_at = now()
  WHERE b.business_id = OLD.id;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
