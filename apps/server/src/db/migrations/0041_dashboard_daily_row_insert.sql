-- A new ticket's dashboard summary delta as one static INSERT (docs/BENCHMARKS.md, first17): 0034's trigger built
-- and planned its aggregate query (EXECUTE of dashboard_daily_add) on every ticket insert, most of the PostgreSQL
-- cost of the messages API's first send to a new number. The same row, computed from NEW: each count is 1 when its
-- filter holds, the day is taken in the time zone 0034 captured. Updates and deletes keep the generic path.
DO $do$
DECLARE tz text := coalesce(
  (SELECT substr(c, length('TimeZone=') + 1) FROM pg_proc p, unnest(p.proconfig) c WHERE p.proname = 'dashboard_daily_deltas' AND c LIKE 'TimeZone=%'),
  current_setting('TimeZone'));
BEGIN
  EXECUTE format($f$
CREATE OR REPLACE FUNCTION "tickets_dashboard_daily"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE single boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    single := NOT NEW.is_group;
    INSERT INTO dashboard_daily (company_id, day, queue_id, user_id, total, tickets, happening, pending, finished, groups, active, with_rating,
      wait_rating, promoters, neutral, detractors, rated, rate_sum, waited, wait_minutes, served, service_minutes)
    VALUES (NEW.company_id, (NEW.created_at AT TIME ZONE %L)::date, coalesce(NEW.queue_id, 0), coalesce(NEW.user_id, 0), 1,
      single::int,
      (single AND NEW.status = 'open')::int,
      (single AND NEW.status = 'pending')::int,
      (single AND NEW.status = 'closed')::int,
      NEW.is_group::int,
      (single AND NEW.started_by_user)::int,
      (single AND NEW.rate IS NOT NULL)::int,
      (single AND NEW.status = 'nps' AND NEW.rate IS NULL)::int,
      coalesce(NEW.rate >= 9, false)::int,
      coalesce(NEW.rate BETWEEN 7 AND 8, false)::int,
      coalesce(NEW.rate <= 6, false)::int,
      (NEW.rate IS NOT NULL)::int,
      coalesce(NEW.rate, 0),
      (single AND NEW.accepted_at IS NOT NULL)::int,
      CASE WHEN single AND NEW.accepted_at IS NOT NULL THEN extract(epoch FROM NEW.accepted_at - NEW.created_at) / 60 ELSE 0 END,
      (single AND NEW.status = 'closed' AND NEW.accepted_at IS NOT NULL)::int,
      CASE WHEN single AND NEW.status = 'closed' AND NEW.accepted_at IS NOT NULL THEN extract(epoch FROM NEW.closed_at - NEW.accepted_at) / 60 ELSE 0 END);
  ELSIF TG_OP = 'DELETE' THEN
    -- A company being deleted takes its summary with it (cascade): nothing to count out.
    IF EXISTS (SELECT 1 FROM companies WHERE id = OLD.company_id) THEN
      EXECUTE dashboard_daily_add('SELECT -1 AS sign, ($1).*') USING OLD;
    END IF;
  ELSE
    EXECUTE dashboard_daily_add('SELECT -1 AS sign, ($1).* UNION ALL SELECT 1, ($2).*') USING OLD, NEW;
  END IF;
  RETURN NULL;
END $$$f$, tz);
END $do$;
