CREATE TABLE "csv_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"operator_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"summary" text
);
--> statement-breakpoint
CREATE TABLE "staff_roles" (
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"granted_by" text NOT NULL,
	CONSTRAINT "staff_roles_user_id_role_pk" PRIMARY KEY("user_id","role")
);
--> statement-breakpoint
ALTER TABLE "csv_imports" ADD CONSTRAINT "csv_imports_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_roles" ADD CONSTRAINT "staff_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "csv_imports_created_idx" ON "csv_imports" USING btree ("created_at");--> statement-breakpoint
-- Every operator of the single-role back office becomes an admin (issue 27): nobody loses access.
INSERT INTO "staff_roles" ("user_id", "role", "granted_by") SELECT "id", 'admin', 'migration' FROM "users" WHERE "role" = 'operator';--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "role";