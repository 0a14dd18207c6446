ALTER TABLE "blueprint_registrations" ADD COLUMN "close_status" "mint_status";--> statement-breakpoint
ALTER TABLE "blueprint_registrations" ADD COLUMN "close_transaction_id" text;