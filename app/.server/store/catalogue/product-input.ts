import { CSV_FORMULA, looksLikeFormula } from "../../csv";
import { PRODUCT_STATUSES, type ProductStatus } from "../../db/schema";

// The rules of a product's fields, ONE set for the back office's form and the CSV import (issue 26
// items 1 and 7): what a field may hold and the Indonesian message beside it when it does not.
// Values arrive as the strings a form or a CSV cell holds; category and city are named by the
// caller (the form by id, the CSV by name) and checked there.

export type ProductFieldName =
  | "sku"
  | "title"
  | "price"
  | "discount"
  | "discountType"
  | "stock"
  | "condition"
  | "weightGram"
  | "minimumPurchase"
  | "description"
  | "status";

export type ProductFields = {
  /** Null: generate one. */
  sku: string | null;
  title: string;
  price: number;
  discount: number;
  discountType: "v" | "%";
  stock: number;
  condition: "Baru" | "Bekas";
  weightGram: number;
  minimumPurchase: number;
  description: string;
  status: ProductStatus;
};

export type FieldErrors<F extends string = ProductFieldName> = Partial<Record<F, string>>;

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5000;
const SKU = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Rupiah up to a trillion: a product price, never a typo of a phone number. */
const AMOUNT_MAX = 1_000_000_000_000;
const COUNT_MAX = 10_000_000;

export const PRODUCT_MESSAGES = {
  titleRequired: "Nama Produk tidak boleh kosong.",
  titleTooLong: `Nama Produk maksimal ${TITLE_MAX} karakter.`,
  titleHtml: "Nama Produk tidak boleh berisi tanda < atau > (kode HTML).",
  sku: "SKU hanya boleh berisi huruf, angka, titik, garis bawah dan tanda hubung (maksimal 64 karakter).",
  skuTaken: "SKU sudah dipakai produk lain.",
  priceRequired: "Harga tidak boleh kosong.",
  priceNumber: "Harga harus berupa angka bulat (rupiah, tanpa desimal).",
  pricePositive: "Harga harus lebih dari 0.",
  discountNumber: "Diskon harus berupa angka bulat 0 atau lebih.",
  discountPercent: "Diskon persen maksimal 100.",
  discountAbovePrice: "Diskon harus lebih kecil dari Harga.",
  discountType: "Tipe Diskon harus Rp (v) atau %.",
  stock: "Stok harus berupa angka bulat 0 atau lebih.",
  condition: "Kondisi harus Baru atau Bekas.",
  weight: "Berat (gram) harus berupa angka bulat 0 atau lebih.",
  minimumPurchase: "Minimal Pembelian harus berupa angka bulat 1 atau lebih.",
  descriptionTooLong: `Deskripsi maksimal ${DESCRIPTION_MAX} karakter.`,
  status: "Status harus Draf, Tayang atau Arsip.",
} as const;

/** A whole number as an operator types it: '28500000', '28.500.000' or '28 500 000'; else null. */
export function wholeNumber(text: string): number | null {
  const compact = text
    .trim()
    .replace(/^Rp\s*/i, "")
    .replace(/\s+/g, "");
  const digits = /^\d{1,3}(\.\d{3})+$/.test(compact) ? compact.replaceAll(".", "") : compact;
  if (!/^-?\d{1,16}$/.test(digits)) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** Reads a product's fields; every error at once, keyed by field. */
export function readProductFields(
  raw: Partial<Record<ProductFieldName, string>>,
): { ok: true; value: ProductFields } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const text = (name: ProductFieldName) => (raw[name] ?? "").trim();
  const noFormula = (name: ProductFieldName, value: string) => {
    if (value && looksLikeFormula(value)) errors[name] ??= CSV_FORMULA;
  };

  const title = text("title");
  if (!title) errors.title = PRODUCT_MESSAGES.titleRequired;
  else if (title.length > TITLE_MAX) errors.title = PRODUCT_MESSAGES.titleTooLong;
  else if (/[<>]/.test(title)) errors.title = PRODUCT_MESSAGES.titleHtml;
  noFormula("title", title);

  const sku = text("sku");
  if (sku && !SKU.test(sku)) errors.sku = PRODUCT_MESSAGES.sku;

  const price = wholeNumber(text("price"));
  if (!text("price")) errors.price = PRODUCT_MESSAGES.priceRequired;
  else if (price === null) errors.price = PRODUCT_MESSAGES.priceNumber;
  else if (price <= 0) errors.price = PRODUCT_MESSAGES.pricePositive;
  else if (price > AMOUNT_MAX) errors.price = PRODUCT_MESSAGES.priceNumber;

  const discountTypeText = text("discountType").toLowerCase();
  const discountType =
    discountTypeText === "" || discountTypeText === "v" || discountTypeText === "rp" ? "v" : discountTypeText === "%" ? "%" : null;
  if (!discountType) errors.discountType = PRODUCT_MESSAGES.discountType;
  const discount = text("discount") ? wholeNumber(text("discount")) : 0;
  if (discount === null || discount < 0 || discount > AMOUNT_MAX) errors.discount = PRODUCT_MESSAGES.discountNumber;
  else if (discountType === "%" && discount > 100) errors.discount = PRODUCT_MESSAGES.discountPercent;
  else if (discountType === "v" && price !== null && price > 0 && discount > 0 && discount >= price)
    errors.discount = PRODUCT_MESSAGES.discountAbovePrice;

  const count = (name: ProductFieldName, fallback: number, min: number, message: string) => {
    const value = text(name) ? wholeNumber(text(name)) : fallback;
    if (value === null || value < min || value > COUNT_MAX) {
      errors[name] = message;
      return fallback;
    }
    return value;
  };
  const stock = count("stock", 0, 0, PRODUCT_MESSAGES.stock);
  const weightGram = count("weightGram", 0, 0, PRODUCT_MESSAGES.weight);
  const minimumPurchase = count("minimumPurchase", 1, 1, PRODUCT_MESSAGES.minimumPurchase);

  const conditionText = text("condition").toLowerCase();
  const condition = conditionText === "" || conditionText === "baru" ? "Baru" : conditionText === "bekas" ? "Bekas" : null;
  if (!condition) errors.condition = PRODUCT_MESSAGES.condition;

  const description = (raw.description ?? "").replace(/\r\n?/g, "\n").trim();
  if (description.length > DESCRIPTION_MAX) errors.description = PRODUCT_MESSAGES.descriptionTooLong;
  // A description may start a list with '-' or '+' (the export quotes such cells); never with = or @.
  if (/^[=@]/.test(description)) errors.description = CSV_FORMULA;

  const statusText = text("status").toLowerCase();
  const status =
    statusText === "" ? "draf" : (PRODUCT_STATUSES as readonly string[]).includes(statusText) ? (statusText as ProductStatus) : null;
  if (!status) errors.status = PRODUCT_MESSAGES.status;

  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      sku: sku || null,
      title,
      price: price!,
      discount: discount!,
      discountType: discountType!,
      stock,
      condition: condition!,
      weightGram,
      minimumPurchase,
      description,
      status: status!,
    },
  };
}
