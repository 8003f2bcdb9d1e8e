CREATE TABLE "gateway_charges" (
	"ref" text PRIMARY KEY NOT NULL,
	"gateway" text NOT NULL,
	"order_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"order_id" integer NOT NULL,
	"gateway" text NOT NULL,
	"gateway_ref" text NOT NULL,
	"amount" integer,
	"detail" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ALTER COLUMN "va_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "biller_code" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "gateway_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "gateway_ref" text;--> statement-breakpoint
ALTER TABLE "gateway_charges" ADD CONSTRAINT "gateway_charges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_incidents" ADD CONSTRAINT "payment_incidents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gateway_charges_order_attempt_key" ON "gateway_charges" USING btree ("order_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_incidents_ref_kind_key" ON "payment_incidents" USING btree ("gateway_ref","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_gateway_ref_key" ON "payments" USING btree ("gateway","gateway_ref");