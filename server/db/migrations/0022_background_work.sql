CREATE TABLE "image_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"object_key" text NOT NULL,
	"mime_type" text NOT NULL,
	"asset_kind" text NOT NULL,
	"quality" integer NOT NULL,
	"input" "bytea",
	"status" text DEFAULT 'pending' NOT NULL,
	"url" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blueprint_registrations" ADD COLUMN "locked_by" text;--> statement-breakpoint
ALTER TABLE "blueprint_registrations" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "image_jobs" ADD CONSTRAINT "image_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_jobs_pending_idx" ON "image_jobs" USING btree ("user_id") WHERE "image_jobs"."status" = 'pending';