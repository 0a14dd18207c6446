ALTER TABLE "orders" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "orders_client_item_idx" ON "orders" USING btree ("client_address","item_id","expires_at");