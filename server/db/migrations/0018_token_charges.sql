ALTER TYPE "public"."order_method" ADD VALUE 'token';--> statement-breakpoint
CREATE TABLE "token_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"buyer_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"order_id" uuid,
	"item_kind" "order_item_kind" NOT NULL,
	"item_id" uuid NOT NULL,
	"eth_address" text NOT NULL,
	"to_currency" text NOT NULL,
	"token_price" bigint NOT NULL,
	"token_amount" text NOT NULL,
	"status" text NOT NULL,
	"signature" text,
	"refund_transaction" text,
	"refund_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "token_charges_order_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "token_transactions" (
	"hash" text PRIMARY KEY NOT NULL,
	"charge_id" uuid NOT NULL,
	"value" text NOT NULL,
	"accepted" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "token_charges" ADD CONSTRAINT "token_charges_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_charges" ADD CONSTRAINT "token_charges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_transactions" ADD CONSTRAINT "token_transactions_charge_id_token_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."token_charges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "token_charges_idempotency_unique" ON "token_charges" USING btree ("buyer_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "token_charges_buyer_idx" ON "token_charges" USING btree ("buyer_id","created_at");