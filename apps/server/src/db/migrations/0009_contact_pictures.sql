ALTER TABLE "contacts" ADD COLUMN "picture_source_url" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "picture_fetched_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tickets_company_unassigned_idx" ON "tickets" USING btree ("company_id","status","updated_at") WHERE user_id IS NULL;
