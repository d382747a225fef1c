-- Category searches read only their category (docs/decisions/0114): each listed slot carries its
-- business's category label, kept in step by the services like the coordinates, and an index per
-- grid on (cell, category, start instant, coordinates).
ALTER TABLE "slots" DROP CONSTRAINT "slots_location_whole";--> statement-breakpoint
ALTER TABLE "slots" ADD COLUMN "business_category" text;--> statement-breakpoint
UPDATE "slots" SET "business_category" = btrim(regexp_replace(b."business_type", '^[^|]*[|]', '')) FROM "business_profiles" b WHERE b."id" = "slots"."business_id" AND "slots"."latitude" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "slots_discovery_small_category_idx" ON "slots" USING btree ("small_cell","business_category","starts_at","latitude","longitude","id") WHERE is_booked = false and latitude is not null;--> statement-breakpoint
CREATE INDEX "slots_discovery_large_category_idx" ON "slots" USING btree ("large_cell","business_category","starts_at","latitude","longitude","id") WHERE is_booked = false and latitude is not null;--> statement-breakpoint
ALTER TABLE "slots" ADD CONSTRAINT "slots_location_whole" CHECK (("slots"."latitude" is null) = ("slots"."longitude" is null) and ("slots"."latitude" is null) = ("slots"."business_category" is null));
