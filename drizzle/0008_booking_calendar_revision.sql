-- A booking's calendar event is issued again, with a higher SEQUENCE, when its slot is re-expressed in
-- the business's new time zone (docs/decisions/0078): SEQUENCE = calendar_revision, plus 1 once cancelled.
ALTER TABLE "bookings" ADD COLUMN "calendar_revision" integer DEFAULT 0 NOT NULL;