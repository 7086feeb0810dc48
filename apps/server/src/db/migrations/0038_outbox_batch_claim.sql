-- The outbox's batch send (modules/conversations/outbound-deliver-batch.ts): a row claimed by a batch carries
-- the claim's time and no next_attempt_at, so neither the sweeper nor the retry job touches it while its send
-- is in flight. A process that dies mid-batch leaves the stamp: once it is old, the row is marked failed
-- instead of sent again (the channel may already have it; a customer never gets a message twice).
ALTER TABLE "messages" ADD COLUMN "batch_claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "messages_batch_claimed_idx" ON "messages" USING btree ("batch_claimed_at") WHERE batch_claimed_at IS NOT NULL;
