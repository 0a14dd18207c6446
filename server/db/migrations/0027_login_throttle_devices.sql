CREATE INDEX "login_throttles_updated_idx" ON "login_throttles" USING btree ("updated_at");--> statement-breakpoint
ALTER TABLE "login_throttles" DROP COLUMN "window_started_at";