ALTER TABLE "orders" ADD COLUMN "reward_percent" double precision;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reward_cap" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_percent" double precision;--> statement-breakpoint
-- Orders and payments made before the rules became settings used the built-in ones (decision 0030: 1%, at most Rp500.000; the spec's 3%).
UPDATE "orders" SET "reward_percent" = 1, "reward_cap" = 500000;--> statement-breakpoint
UPDATE "payments" SET "discount_percent" = 3 WHERE "discount" > 0;
