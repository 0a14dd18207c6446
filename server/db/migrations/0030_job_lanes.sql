DROP INDEX "jobs_due_idx";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "lane" text GENERATED ALWAYS AS (case when kind = 'image.optimize' then 'media' else 'money' end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "account_id" uuid;--> statement-breakpoint
CREATE INDEX "jobs_account_running_idx" ON "jobs" USING btree ("account_id") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_account_served_idx" ON "jobs" USING btree ("account_id","updated_at") WHERE "jobs"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("lane","run_at") WHERE "jobs"."status" in ('queued', 'running');