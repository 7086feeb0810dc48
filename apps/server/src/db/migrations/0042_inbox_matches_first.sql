-- Inbox list at a million tickets (issue 10, Performance; docs/inbox.md "The lists"): a tag filter reads its
-- matches from the tag's ticket_tags rows, probing each ticket by id, and pages them by updatedAt; with
-- updated_at in the index the probe still reads no table row.
DROP INDEX IF EXISTS "tickets_id_list_idx";--> statement-breakpoint
CREATE INDEX "tickets_id_list_idx" ON "tickets" USING btree ("id") INCLUDE ("company_id","status","user_id","queue_id","updated_at");
