CREATE TYPE "public"."payout_state" AS ENUM('created', 'approved', 'denied', 'pending', 'payed', 'cancelled', 'failed');--> statement-breakpoint
CREATE TABLE "blueprint_registrations" (
	"blueprint_id" uuid PRIMARY KEY NOT NULL,
	"flow_blueprint_id" bigint NOT NULL,
	"status" "mint_status" DEFAULT 'pending' NOT NULL,
	"transaction_id" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"storefront_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"state" "payout_state" DEFAULT 'created' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blueprint_registrations" ADD CONSTRAINT "blueprint_registrations_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_storefront_id_storefronts_id_fk" FOREIGN KEY ("storefront_id") REFERENCES "public"."storefronts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_requests_storefront_idx" ON "payout_requests" USING btree ("storefront_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_requests_one_open" ON "payout_requests" USING btree ("storefront_id") WHERE "payout_requests"."state" in ('created', 'pending');