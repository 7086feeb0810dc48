-- Refresh rotation families: every token rotated from one login shares its family, so a reused token revokes them all.
ALTER TABLE "refresh_tokens" ADD COLUMN "family" text;--> statement-breakpoint
UPDATE "refresh_tokens" SET "family" = "jti";--> statement-breakpoint
ALTER TABLE "refresh_tokens" ALTER COLUMN "family" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "refresh_tokens_company_family_idx" ON "refresh_tokens" USING btree ("company_id","family");
