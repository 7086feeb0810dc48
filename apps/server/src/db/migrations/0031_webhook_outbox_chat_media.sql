-- Deliveries are written in the transaction of the change (docs/webhooks.md): the row names what it is about (ref)
-- and gets its payload once the event is presented after the commit (or from the ref, by the sender, after a crash).
ALTER TABLE "webhook_deliveries" ALTER COLUMN "payload" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "ref" jsonb;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_unfilled_idx" ON "webhook_deliveries" USING btree ("company_id","event","ref") WHERE payload IS NULL;
--> statement-breakpoint
-- An internal chat message may carry one file (docs/chats.md): stored under the company's media folder, served to members only.
ALTER TABLE "chat_messages" ADD COLUMN "media_path" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "media_name" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "media_mimetype" text;
