ALTER TABLE "orders" ADD COLUMN "payment_total" integer;--> statement-breakpoint
ALTER TABLE "operator_audit" ADD COLUMN "address" text;--> statement-breakpoint
-- Hand-written (issue 25 item 2): orders whose payment was opened before this column existed take
-- its total, so every screen, the CLI and the export show what the buyer was asked to pay.
UPDATE "orders" SET "payment_total" = "payments"."total" FROM "payments" WHERE "payments"."order_id" = "orders"."id";
