CREATE TABLE "favorites" (
	"user_id" uuid NOT NULL,
	"blueprint_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorites_user_id_blueprint_id_pk" PRIMARY KEY("user_id","blueprint_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "net" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "favorite_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "favorites_user_idx" ON "favorites" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "favorites_blueprint_idx" ON "favorites" USING btree ("blueprint_id");