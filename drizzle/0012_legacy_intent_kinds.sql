-- Account-email intents queued by releases before intent kinds (docs/decisions/0033) have no kind
-- and the subject 'intent:<kind>'. Each known one gets its kind and the empty subject of an intent
-- queued today, so the outbox reads intents by their kind alone.
UPDATE "email_outbox" SET "kind" = substr("subject", 8), "subject" = ''
WHERE "kind" IS NULL AND "subject" IN ('intent:password_reset', 'intent:email_confirmation');
--> statement-breakpoint
-- Any other such row names no known kind: the dispatcher dropped it unsent; so does this.
DELETE FROM "email_outbox" WHERE "kind" IS NULL AND "subject" LIKE 'intent:%';
