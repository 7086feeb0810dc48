-- The word index of GET /contacts search (docs/contacts.md "Search at a million contacts"): each contact's
-- lowercased words (name, number and e-mail split on white space and ASCII punctuation) with its name, so one
-- word's contacts are an ordered walk in name order, and the company's distinct words under a trigram index,
-- so a term's fragment finds its few words without reading their contacts. Kept by a trigger on contacts.
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
-- The words of a contact. Keys stay under btree's limit: names are cut at 250 characters, words at 300.
CREATE FUNCTION "contact_words_of"(name text, number text, email text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
	SELECT DISTINCT left(w, 300) FROM regexp_split_to_table(lower(name || ' ' || number || ' ' || email), '[\s!-/:-@\[-`{-~]+') AS w WHERE w <> ''
$$;--> statement-breakpoint
CREATE FUNCTION "contact_words_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		IF NEW.name = OLD.name AND NEW.number = OLD.number AND NEW.email = OLD.email THEN RETURN NULL; END IF;
		DELETE FROM contact_words WHERE contact_id = OLD.id;
	END IF;
	INSERT INTO contact_words (company_id, word, name, contact_id)
		SELECT NEW.company_id, w, left(NEW.name, 250), NEW.id FROM contact_words_of(NEW.name, NEW.number, NEW.email) AS w;
	INSERT INTO contact_word_list (company_id, word)
		SELECT NEW.company_id, w FROM contact_words_of(NEW.name, NEW.number, NEW.email) AS w ON CONFLICT DO NOTHING;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "contacts_words" AFTER INSERT OR UPDATE OF "name", "number", "email" ON "contacts" FOR EACH ROW EXECUTE FUNCTION "contact_words_sync"();--> statement-breakpoint
INSERT INTO "contact_words" ("company_id", "word", "name", "contact_id")
	SELECT c.company_id, w, left(c.name, 250), c.id FROM "contacts" c, contact_words_of(c.name, c.number, c.email) AS w;--> statement-breakpoint
INSERT INTO "contact_word_list" ("company_id", "word") SELECT DISTINCT "company_id", "word" FROM "contact_words";
