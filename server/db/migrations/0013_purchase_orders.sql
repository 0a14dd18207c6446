ALTER TABLE "nft_purchases" ADD COLUMN "order_id" uuid;--> statement-breakpoint
CREATE INDEX "nft_purchases_buyer_idx" ON "nft_purchases" USING btree ("buyer_id","purchased_on");