CREATE TYPE "public"."coinbase_charge_type" AS ENUM('directPurchase', 'topup');--> statement-breakpoint
ALTER TYPE "public"."order_method" ADD VALUE 'coinbase';--> statement-breakpoint
CREATE TABLE "coinbase_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"buyer_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"type" "coinbase_charge_type" NOT NULL,
	"order_id" uuid,
	"amount" bigint NOT NULL,
	"wallet_address" text NOT NULL,
	"provider_charge_id" text,
	"code" text,
	"hosted_url" text,
	"status" text DEFAULT 'NEW' NOT NULL,
	"context" text,
	"paid" bigint DEFAULT 0 NOT NULL,
	"fusd_transaction_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coinbase_charges_order_unique" UNIQUE("order_id"),
	CONSTRAINT "coinbase_charges_provider_unique" UNIQUE("provider_charge_id")
);
--> statement-breakpoint
ALTER TABLE "coinbase_charges" ADD CONSTRAINT "coinbase_charges_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coinbase_charges" ADD CONSTRAINT "coinbase_charges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coinbase_charges_idempotency_unique" ON "coinbase_charges" USING btree ("buyer_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "coinbase_charges_buyer_idx" ON "coinbase_charges" USING btree ("buyer_id","created_at");