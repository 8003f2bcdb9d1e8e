ALTER TABLE "refunds" ADD COLUMN "expected_amount" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "funds_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "funds_confirmed_by" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "funds_note" text;