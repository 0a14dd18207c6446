ALTER TABLE "wallet_nonces" ADD COLUMN "session" text;--> statement-breakpoint
CREATE INDEX "login_throttles_updated_idx" ON "login_throttles" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "wallet_nonces_session_idx" ON "wallet_nonces" USING btree ("session","expires_at");--> statement-breakpoint
ALTER TABLE "login_throttles" DROP COLUMN "window_started_at";