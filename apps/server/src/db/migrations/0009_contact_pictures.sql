ALTER TABLE "contacts" ADD COLUMN "picture_source_url" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "picture_fetched_at" timestamp with time zone;
