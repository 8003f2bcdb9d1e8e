// JSON Schemas of the API's answers (`data` of the envelope), for the OpenAPI document. The request
// bodies come from the forms' own zod/mini schemas; these describe what the store functions return,
// under the field names of spec §3.

type Schema = Record<string, unknown>;

const str = { type: "string" } as const;
const int = { type: "integer" } as const;
const bool = { type: "boolean" } as const;
const num = { type: "number" } as const;
const dateTime = { type: "string", format: "date-time" } as const;
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: "null" }] });
export const object = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: "object",
  properties,
  required,
});
export const list = (items: Schema): Schema => ({ type: "array", items });
/** Spec §3: pages are `content, total, page, isLastPage` (page from 0). */
export const page = (item: Schema): Schema => object({ content: list(item), total: int, page: int, isLastPage: bool });

export const USER_SCHEMA = object({ email: str, fullname: str, verified: bool });
export const TOKEN_DATA = object({
  user: USER_SCHEMA,
  tokenType: { const: "Bearer" },
  token: { type: "string", description: "Send as `Authorization: Bearer <token>`; valid 30 days unless revoked." },
});
export const PROFILE = object({ fullname: str, phoneNo: str, email: str, nip: str, companyName: str });
export const ID_NAME = object({ id: str, name: str });
export const ID_TITLE = object({ id: int, title: str });
const PROMO_FIELDS = { id: int, title: str, discount: int, discountType: { enum: ["v", "%"] } };
export const PROMO = object(PROMO_FIELDS);
// One object per answer rather than allOf of two: each schema then names all its fields, which
// the API's tests read as closed (app/.server/testing/openapi-contract.ts).
const PRODUCT_ITEM_FIELDS = {
  id: int,
  title: str,
  imageUrl: nullable(str),
  imageWidth: nullable(int),
  imageHeight: nullable(int),
  price: nullable(int),
  discount: int,
  discountType: { enum: ["v", "%"] },
  promo: list(PROMO),
  ratingPercentage: nullable(int),
  sellCount: int,
  cityName: nullable(str),
};
export const PRODUCT_ITEM = object(PRODUCT_ITEM_FIELDS);
export const PRODUCT_DETAIL = object({
  ...PRODUCT_ITEM_FIELDS,
  promo: list(object({ ...PROMO_FIELDS, description: str, incentive: { type: "boolean", description: "The incentive promo" } })),
  images: list(object({ url: str, width: int, height: int })),
  viewCount: int,
  categoryId: nullable(int),
  categoryTitle: nullable(str),
  condition: str,
  weightGram: int,
  addInfo: object({ minimum_purchase: int }),
  description: { type: "string", description: "Sanitised HTML" },
  orderable: bool,
  stock: int,
});
export const BANNER = object({ id: int, title: str, imageUrl: str, width: int, height: int, href: nullable(str) });
export const ADDRESS = object({
  fullAddress: str,
  provinsiId: str,
  kotaId: str,
  kecamatanId: str,
  kelurahanId: str,
  kodePos: str,
  provinsi: str,
  kota: str,
  kecamatan: str,
  kelurahan: str,
});
export const ORDER_ITEM = object({
  id: int,
  statusId: int,
  statusName: str,
  statusDate: dateTime,
  createdAt: dateTime,
  imageUrl: nullable(str),
  productTitle: str,
  quantity: int,
  amount: int,
  totalAmount: {
    type: "integer",
    description: "What is paid: the payment's total once opened (VA discount, fee, unique code), else amount",
  },
  redirectUrl: nullable(str),
  paymentMethodId: nullable(int),
});
export const ORDER_DETAIL = object(
  {
    id: int,
    invoiceId: str,
    createdAt: dateTime,
    statusId: int,
    statusName: str,
    paymentMethodId: nullable(int),
    paymentMethodName: nullable(str),
    tenor: nullable(int),
    amount: int,
    totalAmount: int,
    payment: {
      ...nullable(object({ discount: int, discountPercent: nullable(num), fee: int, uniqueCode: nullable(int) })),
      description: "How totalAmount differs from amount (the invoice's lines); null before a payment is opened",
    },
    priceOri: int,
    insentif: bool,
    insentifVal: int,
    promoPegawaiVal: int,
    redirectUrl: nullable(str),
    buyerName: str,
    buyerNik: str,
    buyerPhoneNumber: str,
    buyerEmail: str,
    fullAddress: str,
    kelurahan: str,
    kecamatan: str,
    kota: str,
    provinsi: str,
    kodePos: str,
    note: str,
    ktpImageUrl: nullable(str),
    // Retention deleted the KTP photo (issue 35): ktpImageUrl is then null.
    ktpDeleted: bool,
    buktiImageUrls: { ...list(str), description: "The delivery proofs sent with the confirmation, in their order" },
    paidAt: { ...nullable(dateTime), description: "When the payment was received; null while unpaid" },
    orderProducts: list(
      object({
        id: int,
        productId: int,
        qty: int,
        title: str,
        imageUrl: nullable(str),
        price: int,
        priceOri: int,
        totalDiscount: int,
        promo: list(object({ title: str, value: int, discountType: str })),
      }),
    ),
  },
  ["id", "invoiceId", "statusId", "statusName", "amount", "totalAmount", "orderProducts"],
);
export const CREATED_ORDER = object({ orderId: int, redirectUrl: nullable(str), created: bool });
export const PAYMENT_DETAIL = object(
  {
    orderId: int,
    invoiceId: str,
    statusId: int,
    statusName: str,
    type: nullable(str),
    imageUrl: nullable(str),
    paymentMethodId: nullable(int),
    paymentMethodName: nullable(str),
    paymentMethodCode: nullable(str),
    tenor: nullable(int),
    vaNo: nullable(str),
    totalAmount: int,
    uniqueCode: { ...nullable(int), description: "A manual transfer's unique code, included in totalAmount" },
    expiredAt: nullable(dateTime),
    expired: bool,
    marker: bool,
    paid: bool,
    canMarkPaid: { type: "boolean", description: "'Saya sudah bayar' is open: a manual transfer awaiting its proof" },
    manualInfoDetail: nullable(object({ bankImageUrl: str, bankAccountName: str, bankName: str, bankAccountNumber: str })),
    howTo: list(object({ type: str, content: str })),
    redirectUrl: nullable(str),
  },
  ["orderId", "totalAmount", "expired", "paid"],
);
const METHOD_FIELDS = {
  id: int,
  name: str,
  code: str,
  type: str,
  imageUrl: str,
  totalPayment: int,
  additionalData: object({ fee: int, applyUrl: nullable(str) }),
  groupName: {
    type: "string",
    enum: ["Virtual Account", "Manual", "Cicilan", "Lainnya"],
    description: "The group the method list shows it in",
  },
};
/** Spec §7 payment/methods: a method of the list. */
export const METHOD = object(METHOD_FIELDS);
/** payment/select: a checked method, with what the payment screen shows of it. */
export const CHOSEN_METHOD = object({
  ...METHOD_FIELDS,
  fee: { type: "integer", description: "'Biaya layanan' as listed (an instalment's shows 0: it is charged per tenor)" },
  breakdown: object({ amount: int, discount: int, discountPercent: num, fee: int, uniqueCode: int, total: int }),
  needsTenor: { type: "boolean", description: "The method needs a tenor (payment/installment)" },
});
export const TENOR = object({
  id: int,
  tenor: int,
  interestPercentage: num,
  label: { type: "string", description: "'{tenor}x Cicilan {interestPercentage}%'" },
  allMount: int,
  perMonth: int,
  totalPayment: int,
  orderTotal: { type: "integer", description: "What the store is paid for the order (amount + fee)" },
  additionalData: object({ fee: int, applyUrl: nullable(str) }),
});
export const BALANCE_ITEM = object({
  id: int,
  title: str,
  description: str,
  amount: int,
  status: nullable(str),
  createdAt: dateTime,
});
