CREATE TABLE "order_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"source" text NOT NULL,
	"ref" text NOT NULL,
	"method_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_receipts_amount_positive" CHECK ("order_receipts"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "refund_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"refund_id" integer NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"actor" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"cause" text NOT NULL,
	"reason" text NOT NULL,
	"method" text NOT NULL,
	"state" text NOT NULL,
	"gateway" text,
	"gateway_ref" text,
	"bank_name" text,
	"account_number" text,
	"account_holder" text,
	"account_given_at" timestamp with time zone,
	"transfer_reference" text,
	"proof_upload_id" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "order_receipts" ADD CONSTRAINT "order_receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_events" ADD CONSTRAINT "refund_events_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_proof_upload_id_uploads_id_fk" FOREIGN KEY ("proof_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_receipts_ref_key" ON "order_receipts" USING btree ("ref");--> statement-breakpoint
CREATE INDEX "order_receipts_order_idx" ON "order_receipts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_receipts_created_idx" ON "order_receipts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "refund_events_refund_idx" ON "refund_events" USING btree ("refund_id","id");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_state_idx" ON "refunds" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "refunds_refunded_idx" ON "refunds" USING btree ("refunded_at");--> statement-breakpoint
-- Orders paid before receipts were recorded: what their payment asked was received (issue 36).
INSERT INTO "order_receipts" ("order_id", "amount", "source", "ref", "method_type", "created_at")
SELECT o."id", coalesce(p."total", o."payment_total", o."total_amount"), 'payment', 'order:' || o."id" || ':paid', p."type", coalesce(p."paid_at", o."status_changed_at")
FROM "orders" o LEFT JOIN "payments" p ON p."order_id" = o."id"
WHERE o."status_id" IN (300, 400, 500) AND coalesce(p."total", o."payment_total", o."total_amount") > 0
ON CONFLICT DO NOTHING;
