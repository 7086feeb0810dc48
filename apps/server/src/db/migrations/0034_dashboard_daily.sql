-- The dashboard's daily summary (docs/dashboard.md): per company, opening day, queue and attendant, the
-- counts and time sums its figures need, each ticket counted by its state now. A month's dashboard reads
-- ~30 days × queues × attendants rows instead of every ticket of the month (0.7–1.2 s at 1,000,000 tickets).
-- Triggers on tickets keep it in the writing transaction, whoever writes (the commands, and the 0014
-- triggers that set accepted_at and rate from the log and rating rows), by INSERTING delta rows: writers
-- never wait on each other's summary rows. A job (modules/dashboard/compaction.ts) folds the deltas into one
-- compacted row per key; readers add up both.
CREATE TABLE "dashboard_daily" (
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "day" date NOT NULL,
  "queue_id" integer NOT NULL,
  "user_id" integer NOT NULL,
  "total" integer NOT NULL DEFAULT 0,
  "tickets" integer NOT NULL DEFAULT 0,
  "happening" integer NOT NULL DEFAULT 0,
  "pending" integer NOT NULL DEFAULT 0,
  "finished" integer NOT NULL DEFAULT 0,
  "groups" integer NOT NULL DEFAULT 0,
  "active" integer NOT NULL DEFAULT 0,
  "with_rating" integer NOT NULL DEFAULT 0,
  "wait_rating" integer NOT NULL DEFAULT 0,
  "promoters" integer NOT NULL DEFAULT 0,
  "neutral" integer NOT NULL DEFAULT 0,
  "detractors" integer NOT NULL DEFAULT 0,
  "rated" integer NOT NULL DEFAULT 0,
  "rate_sum" integer NOT NULL DEFAULT 0,
  "waited" integer NOT NULL DEFAULT 0,
  "wait_minutes" numeric NOT NULL DEFAULT 0,
  "served" integer NOT NULL DEFAULT 0,
  "service_minutes" numeric NOT NULL DEFAULT 0,
  "delta" boolean NOT NULL DEFAULT true
);--> statement-breakpoint
-- One compacted row per key; the readers' range (both kinds of rows); the deltas waiting for the compaction.
CREATE UNIQUE INDEX "dashboard_daily_key" ON "dashboard_daily" ("company_id", "day", "queue_id", "user_id") WHERE NOT "delta";--> statement-breakpoint
CREATE INDEX "dashboard_daily_company_day_idx" ON "dashboard_daily" ("company_id", "day");--> statement-breakpoint
CREATE INDEX "dashboard_daily_deltas_idx" ON "dashboard_daily" ("day") WHERE "delta";--> statement-breakpoint
-- The deltas of a set of ticket rows, as one row per (company, day, queue, user); `changes` is a query
-- giving `sign` (+1 counted in, -1 counted out) and the tickets' columns. 0 stands for "no queue / no user".
-- The day is taken in the time zone this migration ran in (the server's), pinned so that a session with
-- another TimeZone cannot count a ticket in on one day and out on another.
CREATE FUNCTION "dashboard_daily_deltas"("changes" text) RETURNS text LANGUAGE sql STABLE SET "TimeZone" FROM CURRENT AS $f$
SELECT format($q$
  SELECT company_id, (created_at AT TIME ZONE %L)::date AS day, coalesce(queue_id, 0) AS queue_id, coalesce(user_id, 0) AS user_id,
    sum(sign)::int AS total,
    coalesce(sum(sign) FILTER (WHERE NOT is_group), 0)::int AS tickets,
    coalesce(sum(sign) FILTER (WHERE NOT is_group AND status = 'open'), 0)::int AS happening,
    coalesce(sum(sign) FILTER (WHERE NOT is_group AND status = 'pending'), 0)::int AS pending,
    coalesce(sum(sign) FILTER (WHERE NOT is_group AND status = 'closed'), 0)::int AS finished,
    coalesce(sum(sign) FILTER (WHERE is_group), 0)::int AS groups,
    coalesce(sum(sign) FILTER (WHERE NOT is_group AND started_by_user), 0)::int AS active,
    coalesce(sum(sign) FILTER (WHERE NOT is_group AND rate IS NOT NULL), 0)::int AS with_rating,
    coalesce(sum(sign) FILTER (WHERE NOT is_group AND status = 'nps' AND rate IS NULL), 0)::int AS wait_rating,
    coalesce(sum(sign) FILTER (WHERE rate >= 9), 0)::int AS promoters,
    coalesce(sum(sign) FILTER (WHERE rate BETWEEN 7 AND 8), 0)::int AS neutral,
    coalesce(sum(sign) FILTER (WHERE rate <= 6), 0)::int AS detractors,
    coalesce(sum(sign) FILTER (WHERE rate IS NOT NULL), 0)::int AS rated,
    coalesce(sum(sign * rate), 0)::int AS rate_sum,
    coalesce(sum(sign) FILTER (WHERE NOT is_group AND accepted_at IS NOT NULL), 0)::int AS waited,
    coalesce(sum(sign * extract(epoch FROM accepted_at - created_at) / 60) FILTER (WHERE NOT is_group AND accepted_at IS NOT NULL), 0) AS wait_minutes,
    coalesce(sum(sign) FILTER (WHERE NOT is_group AND status = 'closed' AND accepted_at IS NOT NULL), 0)::int AS served,
    coalesce(sum(sign * extract(epoch FROM closed_at - accepted_at) / 60) FILTER (WHERE NOT is_group AND status = 'closed' AND accepted_at IS NOT NULL), 0) AS service_minutes
  FROM (%s) c
  GROUP BY 1, 2, 3, 4$q$, current_setting('TimeZone'), changes)
$f$;--> statement-breakpoint
-- The statement that adds the deltas of `changes` to the summary as delta rows.
CREATE FUNCTION "dashboard_daily_add"("changes" text) RETURNS text LANGUAGE sql STABLE AS $f$
SELECT format($q$
  INSERT INTO dashboard_daily (company_id, day, queue_id, user_id, total, tickets, happening, pending, finished, groups, active, with_rating,
    wait_rating, promoters, neutral, detractors, rated, rate_sum, waited, wait_minutes, served, service_minutes)
  %s$q$, dashboard_daily_deltas(changes))
$f$;--> statement-breakpoint
-- Folds the delta rows into the compacted ones, in key order (two compactions lock in the same order; a
-- delta committed after this statement's snapshot waits for the next one). Answers the deltas folded.
CREATE FUNCTION "dashboard_daily_compact"() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n_folded integer;
BEGIN
  WITH gone AS (DELETE FROM dashboard_daily WHERE delta RETURNING *),
  sums AS (
    SELECT company_id, day, queue_id, user_id, sum(total) AS total, sum(tickets) AS tickets, sum(happening) AS happening,
      sum(pending) AS pending, sum(finished) AS finished, sum(groups) AS groups, sum(active) AS active, sum(with_rating) AS with_rating,
      sum(wait_rating) AS wait_rating, sum(promoters) AS promoters, sum(neutral) AS neutral, sum(detractors) AS detractors,
      sum(rated) AS rated, sum(rate_sum) AS rate_sum, sum(waited) AS waited, sum(wait_minutes) AS wait_minutes, sum(served) AS served,
      sum(service_minutes) AS service_minutes, count(*) AS n
    FROM gone GROUP BY 1, 2, 3, 4),
  upserted AS (
    INSERT INTO dashboard_daily AS d (company_id, day, queue_id, user_id, total, tickets, happening, pending, finished, groups, active,
      with_rating, wait_rating, promoters, neutral, detractors, rated, rate_sum, waited, wait_minutes, served, service_minutes, delta)
    SELECT company_id, day, queue_id, user_id, total, tickets, happening, pending, finished, groups, active, with_rating, wait_rating,
      promoters, neutral, detractors, rated, rate_sum, waited, wait_minutes, served, service_minutes, false
    FROM sums ORDER BY 1, 2, 3, 4
    ON CONFLICT (company_id, day, queue_id, user_id) WHERE NOT delta DO UPDATE SET total = d.total + excluded.total,
      tickets = d.tickets + excluded.tickets, happening = d.happening + excluded.happening, pending = d.pending + excluded.pending,
      finished = d.finished + excluded.finished, groups = d.groups + excluded.groups, active = d.active + excluded.active,
      with_rating = d.with_rating + excluded.with_rating, wait_rating = d.wait_rating + excluded.wait_rating,
      promoters = d.promoters + excluded.promoters, neutral = d.neutral + excluded.neutral, detractors = d.detractors + excluded.detractors,
      rated = d.rated + excluded.rated, rate_sum = d.rate_sum + excluded.rate_sum, waited = d.waited + excluded.waited,
      wait_minutes = d.wait_minutes + excluded.wait_minutes, served = d.served + excluded.served,
      service_minutes = d.service_minutes + excluded.service_minutes
    RETURNING 1)
  SELECT coalesce(sum(n), 0) INTO n_folded FROM sums;
  RETURN n_folded;
END $$;--> statement-breakpoint
-- Row triggers (a statement trigger with transition tables cannot name columns, and would run on every
-- message's ticket update): each inserts the deltas of counting the old row out and the new row in. The
-- update trigger fires only when a column the figures read changed.
CREATE FUNCTION "tickets_dashboard_daily"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE dashboard_daily_add('SELECT 1 AS sign, ($1).*') USING NEW;
  ELSIF TG_OP = 'DELETE' THEN
    -- A company being deleted takes its summary with it (cascade): nothing to count out.
    IF EXISTS (SELECT 1 FROM companies WHERE id = OLD.company_id) THEN
      EXECUTE dashboard_daily_add('SELECT -1 AS sign, ($1).*') USING OLD;
    END IF;
  ELSE
    EXECUTE dashboard_daily_add('SELECT -1 AS sign, ($1).* UNION ALL SELECT 1, ($2).*') USING OLD, NEW;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "tickets_dashboard_daily_insert" AFTER INSERT ON "tickets" FOR EACH ROW EXECUTE FUNCTION "tickets_dashboard_daily"();--> statement-breakpoint
CREATE TRIGGER "tickets_dashboard_daily_update"
  AFTER UPDATE OF "company_id", "created_at", "queue_id", "user_id", "status", "is_group", "started_by_user", "rate", "accepted_at", "closed_at" ON "tickets"
  FOR EACH ROW
  WHEN ((OLD.company_id, OLD.created_at, OLD.queue_id, OLD.user_id, OLD.status, OLD.is_group, OLD.started_by_user, OLD.rate, OLD.accepted_at, OLD.closed_at)
    IS DISTINCT FROM (NEW.company_id, NEW.created_at, NEW.queue_id, NEW.user_id, NEW.status, NEW.is_group, NEW.started_by_user, NEW.rate, NEW.accepted_at, NEW.closed_at))
  EXECUTE FUNCTION "tickets_dashboard_daily"();--> statement-breakpoint
CREATE TRIGGER "tickets_dashboard_daily_delete" AFTER DELETE ON "tickets" FOR EACH ROW EXECUTE FUNCTION "tickets_dashboard_daily"();--> statement-breakpoint
-- Backfill: every existing ticket counted in (also how a bulk load that bypassed triggers catches up), then folded.
DO $$ BEGIN EXECUTE dashboard_daily_add('SELECT 1 AS sign, * FROM tickets'); PERFORM dashboard_daily_compact(); END $$;--> statement-breakpoint
-- The dashboard's new contacts of a period: groups are not leads. Without the predicate the count read every
-- contact row of the period for is_group (0.3 s for a month of a 1,000,000-contact company); now index-only.
DROP INDEX "contacts_company_created_idx";--> statement-breakpoint
CREATE INDEX "contacts_company_created_idx" ON "contacts" USING btree ("company_id","created_at") WHERE NOT "is_group";--> statement-breakpoint
-- The report's and the export's date ranges by opening time. The dashboard now reads the daily summary, so
-- this index carries what the report filters on instead of what the figures read: with queue_id (and
-- whatsapp_id) a plain user's month — visibility is owner OR (queue AND unassigned) — is counted from the
-- index alone (0.52 s of heap reads for 100,000 tickets before, 0.06 s after, at 1,000,000 tickets).
DROP INDEX "tickets_company_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_company_created_idx" ON "tickets" USING btree ("company_id","created_at") INCLUDE ("status","is_group","user_id","queue_id","whatsapp_id","rate");
