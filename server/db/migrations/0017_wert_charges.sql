ALTER TYPE "public"."order_method" ADD VALUE 'wert';--> statement-breakpoint
CREATE TABLE "wert_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"buyer_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"order_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"wallet_address" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"signed_data" jsonb NOT NULL,
	"provider_order_id" text,
	"tx_id" text,
	"fusd_transaction_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wert_charges_order_unique" UNIQUE("order_id"),
	CONSTRAINT "wert_charges_provider_order_unique" UNIQUE("provider_order_id")
);
--> statement-breakpoint
ALTER TABLE "wert_charges" ADD CONSTRAINT "wert_charges_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wert_charges" ADD CONSTRAINT "wert_charges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wert_charges_idempotency_unique" ON "wert_charges" USING btree ("buyer_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "wert_charges_buyer_idx" ON "wert_charges" USING btree ("buyer_id","created_at");