CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TYPE "public"."blueprint_state" AS ENUM('created', 'available', 'printing', 'printed', 'active', 'soldOut', 'canceled', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."blueprint_status" AS ENUM('readyToPrint', 'readyToSell');--> statement-breakpoint
CREATE TYPE "public"."blueprint_type" AS ENUM('standalone', 'standaloneInPack', 'sticker', 'stickerInPack', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."pack_state" AS ENUM('created', 'available', 'printing', 'printed', 'soldOut', 'canceled', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."pack_type" AS ENUM('standalone', 'sticker', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."rarity_level" AS ENUM('common', 'uncommon', 'rare', 'ultraRare', 'legendary', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."report_reason" AS ENUM('offensive', 'illegal', 'misleading', 'other');--> statement-breakpoint
CREATE TYPE "public"."report_status" AS ENUM('created', 'resolved', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."storefront_category" AS ENUM('collectibles', 'digitalArt', 'fashion', 'filmTv', 'gaming', 'music', 'photography', 'sports', 'tradingCards', 'virtualRealEstate');--> statement-breakpoint
CREATE TYPE "public"."storefront_theme" AS ENUM('light', 'dark');--> statement-breakpoint
CREATE TABLE "blueprint_packs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"storefront_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cover_image_url" text,
	"price" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"quantity_available" integer NOT NULL,
	"royalty_percent" double precision DEFAULT 0 NOT NULL,
	"total_fee_percent" double precision DEFAULT 0 NOT NULL,
	"rarity_level" "rarity_level" DEFAULT 'common' NOT NULL,
	"state" "pack_state" DEFAULT 'created' NOT NULL,
	"type" "pack_type" DEFAULT 'standalone' NOT NULL,
	"available_time" timestamp with time zone,
	"drop" boolean DEFAULT false NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blueprints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_blueprint_id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "blueprints_flow_blueprint_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1000 CACHE 1),
	"storefront_id" uuid NOT NULL,
	"blueprint_pack_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"asset_url" text,
	"preview_image_url" text,
	"quantity" integer NOT NULL,
	"quantity_available" integer NOT NULL,
	"price" bigint NOT NULL,
	"royalty_percent" double precision DEFAULT 0 NOT NULL,
	"total_fee_percent" double precision DEFAULT 0 NOT NULL,
	"rarity_level" "rarity_level" DEFAULT 'common' NOT NULL,
	"state" "blueprint_state" DEFAULT 'created' NOT NULL,
	"status" "blueprint_status",
	"visible" boolean DEFAULT true NOT NULL,
	"available_time" timestamp with time zone,
	"drop" boolean DEFAULT false NOT NULL,
	"type" "blueprint_type" DEFAULT 'standalone' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storefront_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"storefront_id" uuid NOT NULL,
	"user_id" uuid,
	"reason" "report_reason" NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" "report_status" DEFAULT 'created' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storefronts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category" "storefront_category",
	"theme" "storefront_theme" DEFAULT 'light' NOT NULL,
	"font" text,
	"logo_url" text,
	"banner_url" text,
	"contact_email" text,
	"vanity_url" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storefronts_owner_unique" UNIQUE("owner_id")
);
--> statement-breakpoint
ALTER TABLE "blueprint_packs" ADD CONSTRAINT "blueprint_packs_storefront_id_storefronts_id_fk" FOREIGN KEY ("storefront_id") REFERENCES "public"."storefronts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blueprints" ADD CONSTRAINT "blueprints_storefront_id_storefronts_id_fk" FOREIGN KEY ("storefront_id") REFERENCES "public"."storefronts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blueprints" ADD CONSTRAINT "blueprints_blueprint_pack_id_blueprint_packs_id_fk" FOREIGN KEY ("blueprint_pack_id") REFERENCES "public"."blueprint_packs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storefront_reports" ADD CONSTRAINT "storefront_reports_storefront_id_storefronts_id_fk" FOREIGN KEY ("storefront_id") REFERENCES "public"."storefronts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storefront_reports" ADD CONSTRAINT "storefront_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storefronts" ADD CONSTRAINT "storefronts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blueprint_packs_storefront_idx" ON "blueprint_packs" USING btree ("storefront_id");--> statement-breakpoint
CREATE UNIQUE INDEX "blueprints_flow_id_unique" ON "blueprints" USING btree ("flow_blueprint_id");--> statement-breakpoint
CREATE INDEX "blueprints_storefront_idx" ON "blueprints" USING btree ("storefront_id","created_at");--> statement-breakpoint
CREATE INDEX "blueprints_pack_idx" ON "blueprints" USING btree ("blueprint_pack_id");--> statement-breakpoint
CREATE INDEX "blueprints_market_idx" ON "blueprints" USING btree ("state","price","id") WHERE "blueprints"."visible";--> statement-breakpoint
CREATE INDEX "blueprints_title_trgm_idx" ON "blueprints" USING gin (lower("title") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "storefronts_name_unique" ON "storefronts" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "storefronts_vanity_unique" ON "storefronts" USING btree (lower("vanity_url"));--> statement-breakpoint
CREATE INDEX "storefronts_created_idx" ON "storefronts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "storefronts_name_trgm_idx" ON "storefronts" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "nft_purchases_nft_idx" ON "nft_purchases" USING btree ("nft_id","purchased_on");