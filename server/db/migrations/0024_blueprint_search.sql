-- btree_gin: a GIN index can hold an ordinary column (the category) beside a title's trigrams.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE TABLE "blueprint_search" (
	"id" uuid PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"price" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"state" "blueprint_state" NOT NULL,
	"storefront_category" "storefront_category",
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
ALTER TABLE "blueprint_search" ADD CONSTRAINT "blueprint_search_id_blueprints_id_fk" FOREIGN KEY ("id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A blueprint has a search row exactly while a visitor may see it (the rule of MARKET_WHERE:
-- visible, of an enabled storefront, in a public state); the row copies what the marketplace
-- filters and sorts on. A column-specific trigger fires on the columns an UPDATE sets, not on those
-- a BEFORE trigger changes: storefront_id stands for the category and flag copied with it. Deleting
-- a blueprint deletes its row (the foreign key).
CREATE FUNCTION blueprints_keep_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.visible AND NEW.storefront_enabled AND NEW.state IN ('available', 'active', 'printed', 'soldOut') THEN
    INSERT INTO blueprint_search (id, title, price, quantity, state, storefront_category, created_at)
    VALUES (NEW.id, lower(NEW.title), NEW.price, NEW.quantity, NEW.state, NEW.storefront_category, NEW.created_at)
    ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, price = EXCLUDED.price,
      quantity = EXCLUDED.quantity, state = EXCLUDED.state,
      storefront_category = EXCLUDED.storefront_category, created_at = EXCLUDED.created_at;
  ELSE
    DELETE FROM blueprint_search WHERE id = NEW.id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER blueprints_keep_search AFTER INSERT OR UPDATE OF title, price, quantity, state, visible,
  storefront_id, storefront_enabled, storefront_category, created_at ON blueprints
  FOR EACH ROW EXECUTE FUNCTION blueprints_keep_search();--> statement-breakpoint
-- The rows of today's blueprints, then their index (built once rather than row by row).
INSERT INTO blueprint_search (id, title, price, quantity, state, storefront_category, created_at)
SELECT id, lower(title), price, quantity, state, storefront_category, created_at FROM blueprints
WHERE visible AND storefront_enabled AND state IN ('available', 'active', 'printed', 'soldOut');--> statement-breakpoint
CREATE INDEX "blueprint_search_title_category_idx" ON "blueprint_search" USING gin ("title" gin_trgm_ops,"storefront_category") WITH (fastupdate=false);--> statement-breakpoint
DROP INDEX "blueprints_title_trgm_idx";--> statement-breakpoint
-- Storefront searches read the name index far more often than storefronts change: no pending list.
DROP INDEX "storefronts_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "storefronts_name_trgm_idx" ON "storefronts" USING gin (lower("name") gin_trgm_ops) WITH (fastupdate=false);
