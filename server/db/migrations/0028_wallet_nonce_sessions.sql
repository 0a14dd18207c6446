ALTER TABLE "wallet_nonces" ADD COLUMN "session" text;--> statement-breakpoint
CREATE INDEX "wallet_nonces_session_idx" ON "wallet_nonces" USING btree ("session","expires_at");