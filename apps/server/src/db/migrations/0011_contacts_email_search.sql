-- GET /contacts searches name, number and e-mail with ILIKE '%x%': with every branch on a trigram index the OR is one bitmap scan, not a scan of the company's contacts.
CREATE INDEX "contacts_email_trgm_idx" ON "contacts" USING gin ("email" gin_trgm_ops);
