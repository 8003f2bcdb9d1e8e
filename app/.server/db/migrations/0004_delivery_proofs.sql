CREATE TABLE "order_delivery_proofs" (
	"order_id" integer NOT NULL,
	"upload_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "order_delivery_proofs_order_id_position_pk" PRIMARY KEY("order_id","position")
);
--> statement-breakpoint
ALTER TABLE "order_delivery_proofs" ADD CONSTRAINT "order_delivery_proofs_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_delivery_proofs" ADD CONSTRAINT "order_delivery_proofs_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;