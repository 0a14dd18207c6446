CREATE TYPE "public"."billing_info_status" AS ENUM('missingSource', 'unverified', 'verified', 'invalid');--> statement-breakpoint
CREATE TYPE "public"."job_status" AS ENUM('queued', 'running', 'done', 'failed');--> statement-breakpoint
CREATE TYPE "public"."order_item_kind" AS ENUM('blueprint', 'pack');--> statement-breakpoint
CREATE TYPE "public"."order_method" AS ENUM('creditCard', 'freeBlueprintClaim');--> statement-breakpoint
CREATE TYPE "public"."order_status" AS ENUM('created', 'authorized', 'captured', 'minting', 'minted', 'declined', 'canceled', 'expired', 'voided', 'refunded');--> statement-breakpoint
CREATE TABLE "billing_infos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source_id" text,
	"last_four_digits" text NOT NULL,
	"scheme" text,
	"expiry_month" integer,
	"expiry_year" integer,
	"first_name" text NOT NULL,
	"last_name" text,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"country" text NOT NULL,
	"zip_code" text NOT NULL,
	"phone_country_code" text NOT NULL,
	"phone_number" text NOT NULL,
	"status" "billing_info_status" DEFAULT 'unverified' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"payment_id" text,
	"session_id" text,
	"status" text DEFAULT 'Pending' NOT NULL,
	"redirect_url" text,
	"billing_info_id" uuid,
	"last4" text,
	"scheme" text,
	"response_code" text,
	"response_summary" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_charges_order_unique" UNIQUE("order_id"),
	CONSTRAINT "card_charges_payment_unique" UNIQUE("payment_id")
);
--> statement-breakpoint
CREATE TABLE "free_blueprint_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"blueprint_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"status" "job_status" DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"locked_by" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"type" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"blueprint_id" uuid NOT NULL,
	"flow_blueprint_id" bigint NOT NULL,
	"serial_number" bigint,
	"nft_id" text,
	"transaction_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"buyer_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"method" "order_method" NOT NULL,
	"item_kind" "order_item_kind" NOT NULL,
	"item_id" uuid NOT NULL,
	"title" text NOT NULL,
	"storefront_id" uuid,
	"amount" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"wallet_address" text NOT NULL,
	"status" "order_status" DEFAULT 'created' NOT NULL,
	"reserved" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"failure_code" text,
	"failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_infos" ADD CONSTRAINT "billing_infos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_charges" ADD CONSTRAINT "card_charges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_charges" ADD CONSTRAINT "card_charges_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "free_blueprint_claims" ADD CONSTRAINT "free_blueprint_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "free_blueprint_claims" ADD CONSTRAINT "free_blueprint_claims_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "free_blueprint_claims" ADD CONSTRAINT "free_blueprint_claims_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_storefront_id_storefronts_id_fk" FOREIGN KEY ("storefront_id") REFERENCES "public"."storefronts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_infos_last4_unique" ON "billing_infos" USING btree ("user_id","last_four_digits");--> statement-breakpoint
CREATE INDEX "card_charges_buyer_idx" ON "card_charges" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "free_blueprint_claims_once" ON "free_blueprint_claims" USING btree ("user_id","blueprint_id");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_kind_key_unique" ON "jobs" USING btree ("kind","key");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "order_events_once" ON "order_events" USING btree ("order_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "order_items_order_blueprint_unique" ON "order_items" USING btree ("order_id","blueprint_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_items_edition_unique" ON "order_items" USING btree ("flow_blueprint_id","serial_number");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_unique" ON "orders" USING btree ("buyer_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_buyer_idx" ON "orders" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_item_idx" ON "orders" USING btree ("item_id","status");--> statement-breakpoint
CREATE INDEX "orders_reserved_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."reserved";