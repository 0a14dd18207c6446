ALTER TYPE "public"."order_method" ADD VALUE 'fusd';--> statement-breakpoint
CREATE TABLE "fusd_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" text NOT NULL,
	"event_index" integer NOT NULL,
	"order_ref" text NOT NULL,
	"order_id" uuid,
	"amount_fusd" text NOT NULL,
	"amount" bigint NOT NULL,
	"refund_to" text NOT NULL,
	"accepted" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"refund_transaction_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fusd_payments" ADD CONSTRAINT "fusd_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fusd_payments_event_unique" ON "fusd_payments" USING btree ("transaction_id","event_index");--> statement-breakpoint
CREATE UNIQUE INDEX "fusd_payments_accepted_unique" ON "fusd_payments" USING btree ("order_id") WHERE "fusd_payments"."accepted";--> statement-breakpoint
CREATE INDEX "fusd_payments_order_idx" ON "fusd_payments" USING btree ("order_id");