CREATE TABLE "geocode_requests" (
	"business_id" uuid PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "geocode_requests_status" CHECK ("geocode_requests"."status" in ('pending', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "business_profiles" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "business_profiles" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "business_profiles" ADD COLUMN "location_precision" text;--> statement-breakpoint
ALTER TABLE "business_profiles" ADD COLUMN "location_source" text;--> statement-breakpoint
ALTER TABLE "business_profiles" ADD COLUMN "discoverable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "slots" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written: existing slots get their start instant from their business's time zone (drizzle-kit
-- cannot express the backfill); new rows get it from the services (shared/zoned-time zonedInstant).
UPDATE "slots" SET "starts_at" = ("slots"."date" + "slots"."start_time"::time) AT TIME ZONE "business_profiles"."timezone"
  FROM "business_profiles" WHERE "business_profiles"."id" = "slots"."business_id";--> statement-breakpoint
ALTER TABLE "slots" ALTER COLUMN "starts_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "slots" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "slots" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "geocode_requests" ADD CONSTRAINT "geocode_requests_business_id_business_profiles_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "geocode_requests_due_idx" ON "geocode_requests" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "slots_discovery_idx" ON "slots" USING btree ("starts_at","latitude","longitude") WHERE is_booked = false and latitude is not null;--> statement-breakpoint
ALTER TABLE "business_profiles" ADD CONSTRAINT "business_profiles_location_whole" CHECK (("business_profiles"."latitude" is null and "business_profiles"."longitude" is null and "business_profiles"."location_precision" is null and "business_profiles"."location_source" is null)
        or ("business_profiles"."latitude" between -90 and 90 and "business_profiles"."longitude" between -180 and 180
          and "business_profiles"."location_precision" in ('exact', 'postcode', 'district', 'town')
          and "business_profiles"."location_source" in ('address', 'device', 'pin')));--> statement-breakpoint
ALTER TABLE "slots" ADD CONSTRAINT "slots_location_whole" CHECK (("slots"."latitude" is null) = ("slots"."longitude" is null));