-- GET /contacts search for terms with 4 or more digits (docs/contacts.md "Search at a million contacts"): each
-- contact's distinct 4-digit grams, taken from the digits of its name, number and e-mail (each field apart), as
-- integers under one GIN index. A term's digits inside a field's digits means all the term's grams among the
-- contact's, so `@>` on the term's grams finds a superset of the matches in a few posting lists (the trigram
-- indexes read dozens of lists of 100,000 entries for a digit string); the ILIKE of the search then decides.
CREATE FUNCTION "contact_digit_grams"(name text, number text, email text) RETURNS int[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT coalesce(array_agg(DISTINCT substr(d, i, 4)::int), '{}')
	FROM unnest(ARRAY[regexp_replace(name, '[^0-9]', '', 'g'), regexp_replace(number, '[^0-9]', '', 'g'), regexp_replace(email, '[^0-9]', '', 'g')]) AS d,
		generate_series(1, length(d) - 3) AS i
$$;--> statement-breakpoint
CREATE INDEX "contacts_digit_grams_idx" ON "contacts" USING gin (contact_digit_grams("name", "number", "email"));
