-- Inbox list at a million tickets (issue 10, Performance; docs/BENCHMARKS.md): a tag filter's capped count
-- starts from the tag's ticket_tags rows and probes each ticket by id; the probe reads only this index
-- (the columns the visibility and tab conditions test), not the table row.
CREATE INDEX IF NOT EXISTS "tickets_id_list_idx" ON "tickets" USING btree ("id") INCLUDE ("company_id","status","user_id","queue_id");
