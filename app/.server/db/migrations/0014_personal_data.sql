CREATE TABLE "personal_data_access" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"buyer_id" integer NOT NULL,
	"item" text NOT NULL,
	"client_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personal_data_keys" (
	"purpose" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_live_incentive_nik_key";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_nik_hash" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "personal_data_access" ADD CONSTRAINT "personal_data_access_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_data_access" ADD CONSTRAINT "personal_data_access_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_data_access" ADD CONSTRAINT "personal_data_access_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_data_access_created_idx" ON "personal_data_access" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "personal_data_access_operator_idx" ON "personal_data_access" USING btree ("operator_id","created_at");--> statement-breakpoint
CREATE INDEX "personal_data_access_buyer_idx" ON "personal_data_access" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_live_incentive_nik_hash_key" ON "orders" USING btree ("buyer_nik_hash") WHERE "orders"."insentif" and "orders"."status_id" not in (1, 2);--> statement-breakpoint
CREATE INDEX "orders_nik_hash_idx" ON "orders" USING btree ("buyer_nik_hash");