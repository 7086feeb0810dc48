-- Issue 16, queue chatbots at run time: when the bot stopped talking to a ticket's customer
-- (a leaf option, too many wrong answers, its time ran out); null while it still leads them.
ALTER TABLE "tickets" ADD COLUMN "bot_finished_at" timestamp with time zone;
