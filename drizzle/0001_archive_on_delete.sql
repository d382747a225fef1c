-- Bookings outlive their slot and business (dashboards spec §3): before either row goes, copy
-- what the customer and business still need into the booking's archived_* columns. The foreign
-- keys then set slot_id / business_id to null.
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
    updated_at = now()
  WHERE b.slot_id = OLD.id;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER slots_archive_bookings BEFORE DELETE ON slots
  FOR EACH ROW EXECUTE FUNCTION archive_bookings_of_slot();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION archive_bookings_of_business() RETURNS trigger AS $$
BEGIN
  UPDATE bookings b SET
    archived_business_name = OLD.business_name,
    archived_business_address = OLD.address,
    updated_at = now()
  WHERE b.business_id = OLD.id;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER business_profiles_archive_bookings BEFORE DELETE ON business_profiles
  FOR EACH ROW EXECUTE FUNCTION archive_bookings_of_business();
