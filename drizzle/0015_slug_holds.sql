-- A business username held for a sign-up whose email was registered (docs/decisions/0117), and the
-- unconfirmed accounts by age, for their removal after 7 days.
CREATE TABLE "slug_holds" (
	"slug" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "users_unconfirmed_created_at_idx" ON "users" USING btree ("created_at") WHERE "users"."email_verified_at" is null;