CREATE TYPE "public"."mint_status" AS ENUM('pending', 'submitted', 'sealed', 'failed');--> statement-breakpoint
CREATE TABLE "mints" (
	"purchase_key" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"blueprint_id" bigint NOT NULL,
	"serial_number" bigint NOT NULL,
	"metadata" jsonb NOT NULL,
	"status" "mint_status" DEFAULT 'pending' NOT NULL,
	"transaction_id" text,
	"nft_id" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mints_edition_unique" ON "mints" USING btree ("blueprint_id","serial_number");