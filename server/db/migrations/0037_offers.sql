CREATE TYPE "public"."offer_status" AS ENUM('open', 'unfunded', 'accepted', 'canceled', 'expired');--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_offer_id" text NOT NULL,
	"buyer_address" text NOT NULL,
	"buyer_id" uuid,
	"owner_address" text NOT NULL,
	"owner_id" uuid,
	"nft_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" "offer_status" DEFAULT 'open' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"transaction_id" text NOT NULL,
	"closing_transaction_id" text,
	"closed_at" timestamp with time zone,
	"funding_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_transaction_unique" UNIQUE("transaction_id"),
	CONSTRAINT "offers_closing_transaction_unique" UNIQUE("closing_transaction_id"),
	CONSTRAINT "offers_chain_unique" UNIQUE("chain_offer_id","buyer_address")
);
--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offers_nft_idx" ON "offers" USING btree ("nft_id","created_at");--> statement-breakpoint
CREATE INDEX "offers_buyer_idx" ON "offers" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "offers_owner_idx" ON "offers" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "offers_standing_idx" ON "offers" USING btree ("status","expires_at");