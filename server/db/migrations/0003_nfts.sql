CREATE TYPE "public"."nft_status" AS ENUM('minting', 'parked', 'forSale');--> statement-breakpoint
CREATE TYPE "public"."sale_listing_status" AS ENUM('active', 'completed', 'cancelled');--> statement-breakpoint
CREATE TABLE "chain_cursor" (
	"stream" text PRIMARY KEY NOT NULL,
	"height" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nft_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" text NOT NULL,
	"buyer_id" uuid,
	"wallet_address" text NOT NULL,
	"nft_id" text NOT NULL,
	"type" text NOT NULL,
	"blockchain_listing_id" text,
	"amount" bigint NOT NULL,
	"purchased_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nft_purchases_transaction_unique" UNIQUE("transaction_id")
);
--> statement-breakpoint
CREATE TABLE "nfts" (
	"id" text PRIMARY KEY NOT NULL,
	"blueprint_id" bigint NOT NULL,
	"serial_number" bigint NOT NULL,
	"owner" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" "nft_status" DEFAULT 'parked' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_listings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"blockchain_listing_id" text NOT NULL,
	"seller" text NOT NULL,
	"nft_id" text NOT NULL,
	"price" bigint NOT NULL,
	"status" "sale_listing_status" DEFAULT 'active' NOT NULL,
	"purchased_by" text,
	"listed_on" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_on" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sale_listings_blockchain_unique" UNIQUE("blockchain_listing_id")
);
--> statement-breakpoint
ALTER TABLE "nft_purchases" ADD CONSTRAINT "nft_purchases_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "nfts_owner_idx" ON "nfts" USING btree ("owner");--> statement-breakpoint
CREATE UNIQUE INDEX "nfts_edition_unique" ON "nfts" USING btree ("blueprint_id","serial_number");--> statement-breakpoint
CREATE INDEX "sale_listings_nft_idx" ON "sale_listings" USING btree ("nft_id","status");