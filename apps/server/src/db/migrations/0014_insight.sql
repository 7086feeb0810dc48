-- Dashboard and reports (docs/dashboard.md). Each ticket carries what the period's figures read, so a
-- month of tickets is one index-only range scan instead of a probe per ticket into its log and rating:
-- when an attendant first took it, whether an attendant started it, and the customer's NPS answer.
ALTER TABLE "tickets" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "started_by_user" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "rate" integer;--> statement-breakpoint
-- Kept by the database from the log and rating rows, whoever writes them (every command writes its log line).
CREATE FUNCTION "tickets_insight_from_log"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.type = 'open' OR (NEW.type = 'create' AND NEW.user_id IS NOT NULL) THEN
    UPDATE tickets SET accepted_at = NEW.created_at, started_by_user = started_by_user OR NEW.type = 'create'
    WHERE id = NEW.ticket_id AND (accepted_at IS NULL OR accepted_at > NEW.created_at);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_logs_insight" AFTER INSERT ON "ticket_logs" FOR EACH ROW EXECUTE FUNCTION "tickets_insight_from_log"();--> statement-breakpoint
CREATE FUNCTION "tickets_insight_from_rating"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE tickets SET rate = NULL WHERE id = OLD.ticket_id;
  ELSE
    UPDATE tickets SET rate = NEW.rate WHERE id = NEW.ticket_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_ratings_insight" AFTER INSERT OR UPDATE OF "rate" OR DELETE ON "ticket_ratings" FOR EACH ROW EXECUTE FUNCTION "tickets_insight_from_rating"();--> statement-breakpoint
UPDATE "tickets" t SET "accepted_at" = l.accepted_at, "started_by_user" = l.started
FROM (
  SELECT ticket_id,
    min(created_at) FILTER (WHERE type = 'open' OR (type = 'create' AND user_id IS NOT NULL)) AS accepted_at,
    coalesce(bool_or(type = 'create' AND user_id IS NOT NULL), false) AS started
  FROM ticket_logs GROUP BY ticket_id
) l
WHERE l.ticket_id = t.id AND (l.accepted_at IS NOT NULL OR l.started);--> statement-breakpoint
UPDATE "tickets" t SET "rate" = r.rate FROM "ticket_ratings" r WHERE r.ticket_id = t.id;--> statement-breakpoint
-- The period's tickets by opening time, with every column the figures read (index-only scans).
CREATE INDEX "tickets_company_created_idx" ON "tickets" USING btree ("company_id","created_at") INCLUDE ("status","is_group","user_id","closed_at","accepted_at","started_by_user","rate");--> statement-breakpoint
-- The dashboard's new contacts of a period.
CREATE INDEX "contacts_company_created_idx" ON "contacts" USING btree ("company_id","created_at");
