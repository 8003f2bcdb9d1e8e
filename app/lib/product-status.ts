// A product's status in the catalogue (issue 26): shared by the schema, the store and the back
// office's screens (no server code here).

/** 'draf' (not shown to buyers), 'tayang' (published), 'arsip' (withdrawn; existing orders still show it). */
export const PRODUCT_STATUSES = ["draf", "tayang", "arsip"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** How the back office names a status. */
export const STATUS_LABELS: Record<ProductStatus, string> = { draf: "Draf", tayang: "Tayang", arsip: "Arsip" };
