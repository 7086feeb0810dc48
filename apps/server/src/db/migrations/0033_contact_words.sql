-- The word index of GET /contacts search (docs/contacts.md "Search at a million contacts"): each contact's
-- lowercased words (name, number and e-mail split on white space, ASCII punctuation and digits) with its name, so one
-- word's contacts are an ordered walk in name order, and the company's distinct words under a trigram index,
-- so a term's fragment finds its few words without reading their contacts. Kept by triggers on contacts.
CREATE TABLE "contact_words" (
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"word" text NOT NULL,
	"name" text NOT NULL,
	"contact_id" integer NOT NULL REFERENCES "contacts"("id") ON DELETE CASCADE,
	CONSTRAINT "contact_words_pkey" PRIMARY KEY ("company_id","word","name","contact_id")
);--> statement-breakpoint
CREATE INDEX "contact_words_contact_idx" ON "contact_words" USING btree ("contact_id");--> statement-breakpoint
-- Never shrinks: a word no contact holds any more maps to an empty walk.
CREATE TABLE "contact_word_list" (
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"word" text NOT NULL,
	CONSTRAINT "contact_word_list_pkey" PRIMARY KEY ("company_id","word")
);--> statement-breakpoint
CREATE INDEX "contact_word_list_trgm_idx" ON "contact_word_list" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words of a contact: digits split too, as a term with digits is left to the trigram indexes (numbers add no
-- words, and the company's word list stays its distinct names and e-mail parts). Keys stay under btree's limit:
-- names are cut at 250 characters, words at 300.
CREATE FUNCTION "contact_words_of"(name text, number text, email text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
	SELECT DISTINCT left(w, 300) FROM regexp_split_to_table(lower(name || ' ' || number || ' ' || email), '[\s!-@\[-`{-~]+') AS w WHERE w <> ''
$$;--> statement-breakpoint
-- Statement triggers with transition tables: an import's thousand-row upsert indexes its words in two statements, not two per row.
CREATE FUNCTION "contact_words_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO contact_words (company_id, word, name, contact_id)
		SELECT n.company_id, w, left(n.name, 250), n.id FROM new_rows n, contact_words_of(n.name, n.number, n.email) AS w
		ON CONFLICT DO NOTHING;
	INSERT INTO contact_word_list (company_id, word)
		SELECT DISTINCT n.company_id, w FROM new_rows n, contact_words_of(n.name, n.number, n.email) AS w
		ON CONFLICT DO NOTHING;
	RETURN NULL;
END $$;--> statement-breakpoint
-- Updates: only the rows whose name, number or e-mail changed are indexed again (a block or a picture changes none).
CREATE FUNCTION "contact_words_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.name, n.number, n.email) IS DISTINCT FROM (o.name, o.number, o.email)) THEN
		RETURN NULL;
	END IF;
	DELETE FROM contact_words cw USING new_rows n, old_rows o
		WHERE cw.contact_id = n.id AND o.id = n.id AND (n.name, n.number, n.email) IS DISTINCT FROM (o.name, o.number, o.email);
	INSERT INTO contact_words (company_id, word, name, contact_id)
		SELECT n.company_id, w, left(n.name, 250), n.id FROM new_rows n JOIN old_rows o ON o.id = n.id, contact_words_of(n.name, n.number, n.email) AS w
		WHERE (n.name, n.number, n.email) IS DISTINCT FROM (o.name, o.number, o.email)
		ON CONFLICT DO NOTHING;
	INSERT INTO contact_word_list (company_id, word)
		SELECT DISTINCT n.company_id, w FROM new_rows n JOIN old_rows o ON o.id = n.id, contact_words_of(n.name, n.number, n.email) AS w
		WHERE (n.name, n.number, n.email) IS DISTINCT FROM (o.name, o.number, o.email)
		ON CONFLICT DO NOTHING;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "contacts_words_insert" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "contact_words_add"();--> statement-breakpoint
CREATE TRIGGER "contacts_words_update" AFTER UPDATE ON "contacts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "contact_words_change"();--> statement-breakpoint
INSERT INTO "contact_words" ("company_id", "word", "name", "contact_id")
	SELECT c.company_id, w, left(c.name, 250), c.id FROM "contacts" c, contact_words_of(c.name, c.number, c.email) AS w;--> statement-breakpoint
INSERT INTO "contact_word_list" ("company_id", "word") SELECT DISTINCT "company_id", "word" FROM "contact_words";
