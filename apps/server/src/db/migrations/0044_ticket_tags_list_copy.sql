-- Inbox tag filters at a million tickets (issue 10, Performance; docs/inbox.md "The lists"): each ticket_tags row
-- carries a copy of its ticket's status and owner, so a tag filter reads only the tag's rows of the tab or of the
-- user (index range tag, status, owner) and probes those tickets by id, instead of hashing the tag's ~17,000 rows
-- against the user's ~45,000 closed tickets. The copy only narrows the read: the list still applies every
-- condition to the ticket itself, so a wrong copy could hide a ticket from a filter, never show one.
-- Kept by triggers (the ticket commands stay the only writers of tickets): a new link copies its ticket, a change
-- of a ticket's status or owner rewrites its links. The new link reads its ticket FOR SHARE, which waits for a
-- change in flight and then reads it, and makes a later change wait for the link's commit (the change's UPDATE
-- of the links then sees it): the copy cannot miss a change. Row locks, not advisory ones: closing thousands of
-- tickets in one statement must not fill the lock table. The change trigger fires only when the status or owner
-- changed, not on every message's update.
ALTER TABLE "ticket_tags" ADD COLUMN "status" text, ADD COLUMN "user_id" integer;--> statement-breakpoint
UPDATE "ticket_tags" tt SET "status" = t."status", "user_id" = t."user_id" FROM "tickets" t WHERE t."id" = tt."ticket_id";--> statement-breakpoint
CREATE INDEX "ticket_tags_list_idx" ON "ticket_tags" USING btree ("tag_id","status","user_id","ticket_id");--> statement-breakpoint
CREATE FUNCTION "ticket_tags_copy_ticket"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t.status, t.user_id INTO NEW.status, NEW.user_id FROM tickets t WHERE t.id = NEW.ticket_id FOR SHARE;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_tags_copy_ticket" BEFORE INSERT OR UPDATE OF "ticket_id" ON "ticket_tags" FOR EACH ROW EXECUTE FUNCTION "ticket_tags_copy_ticket"();--> statement-breakpoint
CREATE FUNCTION "tickets_copy_to_ticket_tags"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_tags SET status = NEW.status, user_id = NEW.user_id
    WHERE ticket_id = NEW.id AND (status IS DISTINCT FROM NEW.status OR user_id IS DISTINCT FROM NEW.user_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "tickets_copy_to_ticket_tags" AFTER UPDATE OF "status", "user_id" ON "tickets" FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION "tickets_copy_to_ticket_tags"();--> statement-breakpoint
ANALYZE "ticket_tags";
