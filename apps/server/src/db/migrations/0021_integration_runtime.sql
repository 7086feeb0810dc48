-- Issue 16, integrations at run time: when an integration handed the ticket over (gave up, or the
-- agent ended the conversation), so the connection's integration does not take it back.
ALTER TABLE "tickets" ADD COLUMN "integration_stopped_at" timestamp with time zone;
