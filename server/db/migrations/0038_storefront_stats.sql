CREATE TABLE "storefront_stats" (
	"storefront_id" uuid PRIMARY KEY NOT NULL,
	"floor" bigint,
	"volume_24h" bigint DEFAULT 0 NOT NULL,
	"sales_24h" integer DEFAULT 0 NOT NULL,
	"volume_7d" bigint DEFAULT 0 NOT NULL,
	"sales_7d" integer DEFAULT 0 NOT NULL,
	"volume_all" bigint DEFAULT 0 NOT NULL,
	"sales_all" integer DEFAULT 0 NOT NULL,
	"owners" integer DEFAULT 0 NOT NULL,
	"listed" integer DEFAULT 0 NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blueprints" ADD COLUMN "trending" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "storefront_stats" ADD CONSTRAINT "storefront_stats_storefront_id_storefronts_id_fk" FOREIGN KEY ("storefront_id") REFERENCES "public"."storefronts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "storefront_stats_volume_7d_idx" ON "storefront_stats" USING btree ("volume_7d","storefront_id");--> statement-breakpoint
CREATE INDEX "storefront_stats_volume_all_idx" ON "storefront_stats" USING btree ("volume_all","storefront_id");--> statement-breakpoint
CREATE INDEX "blueprints_market_trending_idx" ON "blueprints" USING btree ("trending","id") WHERE "blueprints"."visible" and "blueprints"."storefront_enabled" and "blueprints"."state" in ('available', 'active', 'printed', 'soldOut');--> statement-breakpoint
CREATE INDEX "nft_purchases_purchased_on_idx" ON "nft_purchases" USING btree ("purchased_on");