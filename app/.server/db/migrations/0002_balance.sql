CREATE TABLE "balance_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"amount" integer NOT NULL,
	"status" text,
	"order_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "balance_entries_amount_positive" CHECK ("balance_entries"."amount" > 0),
	CONSTRAINT "balance_entries_kind_status" CHECK (("balance_entries"."kind" = 'credit' and "balance_entries"."status" is null) or ("balance_entries"."kind" = 'withdrawal' and "balance_entries"."status" is not null and "balance_entries"."order_id" is null))
);
--> statement-breakpoint
ALTER TABLE "balance_entries" ADD CONSTRAINT "balance_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_entries" ADD CONSTRAINT "balance_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_entries_user_created_idx" ON "balance_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "balance_entries_order_key" ON "balance_entries" USING btree ("order_id");