-- GET /messages-allMe counts a company's public messages sent or received in a date range (the dashboard's
-- "Mensagens Recebidas/Enviadas"): without this it read every message row of the range (4–6 s for a month of
-- a 10,000,000-message company); with it the count is an index-only range scan of one direction.
CREATE INDEX "messages_company_direction_idx" ON "messages" USING btree ("company_id","from_me","created_at") WHERE NOT "is_private";
