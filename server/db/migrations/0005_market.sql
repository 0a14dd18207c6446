DROP INDEX "blueprints_market_idx";--> statement-breakpoint
ALTER TABLE "blueprints" ADD COLUMN "storefront_category" "storefront_category";--> statement-breakpoint
ALTER TABLE "blueprints" ADD COLUMN "storefront_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "blueprints_market_price_idx" ON "blueprints" USING btree ("price","id") WHERE "blueprints"."visible" and "blueprints"."storefront_enabled" and "blueprints"."state" in ('available', 'active', 'printed', 'soldOut');--> statement-breakpoint
CREATE INDEX "blueprints_market_quantity_idx" ON "blueprints" USING btree ("quantity","id") WHERE "blueprints"."visible" and "blueprints"."storefront_enabled" and "blueprints"."state" in ('available', 'active', 'printed', 'soldOut');--> statement-breakpoint
CREATE INDEX "blueprints_market_created_at_idx" ON "blueprints" USING btree ("created_at","id") WHERE "blueprints"."visible" and "blueprints"."storefront_enabled" and "blueprints"."state" in ('available', 'active', 'printed', 'soldOut');--> statement-breakpoint
CREATE INDEX "blueprints_market_category_idx" ON "blueprints" USING btree ("storefront_category","price","id") WHERE "blueprints"."visible" and "blueprints"."storefront_enabled" and "blueprints"."state" in ('available', 'active', 'printed', 'soldOut');-- Blueprints carry their storefront's category and enabled flag, so the marketplace filters and
--> statement-breakpoint
-- Blueprints carry their storefront's category and enabled flag, so the marketplace filters and
-- sorts on one table (its partial indexes). Triggers keep the copies right.
CREATE FUNCTION blueprints_copy_storefront() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT s.category, s.enabled INTO NEW.storefront_category, NEW.storefront_enabled
  FROM storefronts s WHERE s.id = NEW.storefront_id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER blueprints_copy_storefront BEFORE INSERT OR UPDATE OF storefront_id ON blueprints
  FOR EACH ROW EXECUTE FUNCTION blueprints_copy_storefront();--> statement-breakpoint
CREATE FUNCTION storefronts_push_to_blueprints() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE blueprints SET storefront_category = NEW.category, storefront_enabled = NEW.enabled
  WHERE storefront_id = NEW.id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER storefronts_push_to_blueprints AFTER UPDATE OF category, enabled ON storefronts
  FOR EACH ROW WHEN (OLD.category IS DISTINCT FROM NEW.category OR OLD.enabled IS DISTINCT FROM NEW.enabled)
  EXECUTE FUNCTION storefronts_push_to_blueprints();--> statement-breakpoint
UPDATE blueprints b SET storefront_category = s.category, storefront_enabled = s.enabled
FROM storefronts s WHERE s.id = b.storefront_id;
