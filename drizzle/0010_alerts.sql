CREATE TABLE "alert_matches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid,
	"like_id" uuid,
	"slot_id" uuid NOT NULL,
	"distance_miles" double precision,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_matches_one_subscription" CHECK (("alert_matches"."alert_id" is null) <> ("alert_matches"."like_id" is null))
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"place" text,
	"label" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"miles" integer NOT NULL,
	"window" text NOT NULL,
	"category" text,
	"timezone" text NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_emailed_at" timestamp with time zone,
	CONSTRAINT "alerts_position" CHECK ("alerts"."latitude" between -90 and 90 and "alerts"."longitude" between -180 and 180),
	CONSTRAINT "alerts_miles" CHECK ("alerts"."miles" in (1, 2, 5, 10, 25)),
	CONSTRAINT "alerts_window" CHECK ("alerts"."window" in ('1h', '2h', '4h', 'today', 'tomorrow'))
);
--> statement-breakpoint
ALTER TABLE "customer_likes" ADD COLUMN "notify_new_slots" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_likes" ADD COLUMN "last_alerted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_matches" ADD CONSTRAINT "alert_matches_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_matches" ADD CONSTRAINT "alert_matches_like_id_customer_likes_id_fk" FOREIGN KEY ("like_id") REFERENCES "public"."customer_likes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_matches" ADD CONSTRAINT "alert_matches_slot_id_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_matches_alert_slot_unique" ON "alert_matches" USING btree ("alert_id","slot_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_matches_like_slot_unique" ON "alert_matches" USING btree ("like_id","slot_id");--> statement-breakpoint
CREATE INDEX "alert_matches_slot_idx" ON "alert_matches" USING btree ("slot_id");--> statement-breakpoint
CREATE INDEX "alert_matches_matched_at_idx" ON "alert_matches" USING btree ("matched_at");--> statement-breakpoint
CREATE INDEX "alerts_customer_idx" ON "alerts" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "alerts_active_latitude_idx" ON "alerts" USING btree ("latitude","longitude") WHERE paused = false;--> statement-breakpoint
CREATE INDEX "customer_likes_notify_idx" ON "customer_likes" USING btree ("business_id") WHERE notify_new_slots;