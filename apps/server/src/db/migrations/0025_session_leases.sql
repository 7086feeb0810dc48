-- Issue 19: each WhatsApp (Baileys) session is owned by one API node through a lease with a heartbeat.
-- No row: nobody runs the session. An expired row: its node died; another node takes it over.
CREATE TABLE "whatsapp_session_leases" (
	"whatsapp_id" integer PRIMARY KEY NOT NULL REFERENCES "whatsapps"("id") ON DELETE CASCADE,
	"node_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "whatsapp_session_leases_expires_idx" ON "whatsapp_session_leases" ("expires_at");
