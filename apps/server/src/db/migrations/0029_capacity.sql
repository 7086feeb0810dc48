-- Issue 16, attendant capacity: the most tickets (open, or pending in their hands) an attendant receives
-- by automatic assignment (router, userRandom, wallets, a bot's attendent option); null or 0: unlimited.
ALTER TABLE "users" ADD COLUMN "max_open_tickets" integer;
--> statement-breakpoint
-- Issue 16, one customer message at a time through a ticket's connection behaviours (bot, router…):
-- a lease (no connection held while the step talks to the network) and the last message whose step ran.
CREATE TABLE "ticket_turns" (
  "ticket_id" integer PRIMARY KEY NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
  "last_message_id" integer,
  "leased_until" timestamp with time zone
);
