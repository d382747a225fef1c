-- Discover leads with place (docs/decisions/0108): each slot's cells in two grids, computed by
-- PostgreSQL from the listed coordinates on every write (and here for the rows there are), and an
-- index per grid on (cell, start instant, coordinates) in place of the start-led one.
DROP INDEX "slots_discovery_idx";--> statement-breakpoint
ALTER TABLE "slots" ADD COLUMN "small_cell" integer GENERATED ALWAYS AS (case when latitude is not null and longitude is not null then least(4095, floor((latitude + 90) * 4096 / 180))::int * 4096 + least(4095, floor((longitude + 180) * 4096 / 360))::int end) STORED;--> statement-breakpoint
ALTER TABLE "slots" ADD COLUMN "large_cell" integer GENERATED ALWAYS AS (case when latitude is not null and longitude is not null then least(1023, floor((latitude + 90) * 1024 / 180))::int * 1024 + least(1023, floor((longitude + 180) * 1024 / 360))::int end) STORED;--> statement-breakpoint
CREATE INDEX "slots_discovery_small_idx" ON "slots" USING btree ("small_cell","starts_at","latitude","longitude","id") WHERE is_booked = false and latitude is not null;--> statement-breakpoint
CREATE INDEX "slots_discovery_large_idx" ON "slots" USING btree ("large_cell","starts_at","latitude","longitude","id") WHERE is_booked = false and latitude is not null;