CREATE TYPE "public"."activity_kind" AS ENUM('sale', 'listing', 'delisting', 'mint', 'transfer', 'offer', 'offerAccepted');--> statement-breakpoint
CREATE TABLE "activity" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"kind" "activity_kind" NOT NULL,
	"nft_id" text,
	"blueprint_id" uuid,
	"storefront_id" uuid,
	"serial_number" integer,
	"price" bigint,
	"from_address" text,
	"to_address" text,
	"from_user_id" uuid,
	"to_user_id" uuid,
	"transaction_id" text,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "activity_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_storefront_id_storefronts_id_fk" FOREIGN KEY ("storefront_id") REFERENCES "public"."storefronts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_time_idx" ON "activity" USING btree ("occurred_at","id");--> statement-breakpoint
CREATE INDEX "activity_kind_idx" ON "activity" USING btree ("kind","occurred_at","id");--> statement-breakpoint
CREATE INDEX "activity_storefront_idx" ON "activity" USING btree ("storefront_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "activity_blueprint_idx" ON "activity" USING btree ("blueprint_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "activity_nft_idx" ON "activity" USING btree ("nft_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "activity_from_user_idx" ON "activity" USING btree ("from_user_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "activity_to_user_idx" ON "activity" USING btree ("to_user_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "activity_transaction_idx" ON "activity" USING btree ("transaction_id","nft_id") WHERE "activity"."transaction_id" is not null;