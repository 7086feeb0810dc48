-- Inbox list at a million tickets (issue 10, Performance; docs/BENCHMARKS.md).
-- The tab walks read only index entries: each index the list walks in updatedAt order also
-- carries the id (the tie-break of the list order) and the columns the visibility filters test.
DROP INDEX IF EXISTS "tickets_company_id_idx";--> statement-breakpoint
CREATE INDEX "tickets_company_id_idx" ON "tickets" USING btree ("company_id","status","updated_at","id") INCLUDE ("queue_id","user_id");--> statement-breakpoint
DROP INDEX IF EXISTS "tickets_company_user_idx";--> statement-breakpoint
CREATE INDEX "tickets_company_user_idx" ON "tickets" USING btree ("company_id","user_id","status","updated_at","id") INCLUDE ("queue_id");--> statement-breakpoint
DROP INDEX IF EXISTS "tickets_company_unassigned_idx";--> statement-breakpoint
CREATE INDEX "tickets_company_unassigned_idx" ON "tickets" USING btree ("company_id","status","updated_at","id") INCLUDE ("queue_id") WHERE user_id IS NULL;--> statement-breakpoint
-- Pending tickets have no owner and open ones have one (the transitions see to it): without this
-- the planner multiplies the two selectivities, expects a handful of unassigned pending tickets,
-- and sorts all 40 000 of them instead of walking the index above for a page.
CREATE STATISTICS IF NOT EXISTS "tickets_status_owner_stats" (mcv) ON "status", "user_id" FROM "tickets";--> statement-breakpoint
ANALYZE "tickets";
