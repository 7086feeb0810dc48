-- Issue 16, AI prompts: when the prompt step handed the ticket to its queue's people (a customer asking for a
-- human, or the model failing); the step leaves such a ticket alone until it is reopened.
ALTER TABLE "tickets" ADD COLUMN "prompt_handed_over_at" timestamp with time zone;
