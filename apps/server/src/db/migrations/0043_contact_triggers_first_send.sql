-- Cheaper contact triggers for the messages API's first send to a new number (docs/BENCHMARKS.md, first17c).
-- Words: an inserted contact's words are computed once (one statement for both tables, where 0033 ran
-- contact_words_of twice), and a statement whose rows hold no word skips both inserts: a contact named by its
-- number (what the messages API and inbound messages create) has none, as digits and punctuation split words.
CREATE OR REPLACE FUNCTION "contact_words_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.name || n.number || n.email ~ '[^\s!-@\[-`{-~]') THEN
		RETURN NULL;
	END IF;
	WITH w AS MATERIALIZED (
		SELECT n.company_id, w AS word, left(n.name, 250) AS name, n.id FROM new_rows n, contact_words_of(n.name, n.number, n.email) AS w
	), words AS (
		INSERT INTO contact_words (company_id, word, name, contact_id) SELECT company_id, word, name, id FROM w ON CONFLICT DO NOTHING
	)
	INSERT INTO contact_word_list (company_id, word) SELECT DISTINCT company_id, word FROM w ON CONFLICT DO NOTHING;
	RETURN NULL;
END $$;--> statement-breakpoint
-- Digit grams: a name equal to the number adds the number's grams again, which the GIN index keeps once, so it is
-- skipped. Every row's set of grams is unchanged (only repeats go), so the index built with 0037's body stays exact.
CREATE OR REPLACE FUNCTION "contact_digit_grams"(name text, number text, email text) RETURNS int[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
	d text;
	grams int[] := '{}';
BEGIN
	FOREACH d IN ARRAY CASE WHEN name = number THEN ARRAY[number, email] ELSE ARRAY[name, number, email] END LOOP
		d := coalesce(translate(d, translate(d, '0123456789', ''), ''), '');
		FOR i IN 1 .. length(d) - 3 LOOP
			grams := grams || substr(d, i, 4)::int;
		END LOOP;
	END LOOP;
	RETURN grams;
END
$$;
