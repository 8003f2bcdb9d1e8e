CREATE TABLE "roster_link_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"entry_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"state" text NOT NULL,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"decided_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "roster_entries" ADD COLUMN "work_email" text;--> statement-breakpoint
ALTER TABLE "roster_link_requests" ADD CONSTRAINT "roster_link_requests_entry_id_roster_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."roster_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_link_requests" ADD CONSTRAINT "roster_link_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_link_requests" ADD CONSTRAINT "roster_link_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "roster_link_requests_open_key" ON "roster_link_requests" USING btree ("user_id") WHERE "roster_link_requests"."state" in ('email', 'petugas');--> statement-breakpoint
CREATE UNIQUE INDEX "roster_link_requests_token_key" ON "roster_link_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "roster_link_requests_entry_idx" ON "roster_link_requests" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "roster_link_requests_open_idx" ON "roster_link_requests" USING btree ("created_at") WHERE "roster_link_requests"."state" in ('email', 'petugas');