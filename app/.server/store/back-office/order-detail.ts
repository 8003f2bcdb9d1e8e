import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import { getDb } from "../../db/client";
import { companies, orderEvents, orders, orderStatuses, paymentMethods, payments, uploads, users } from "../../db/schema";
import { costLines, orderLines, type CostLine } from "../orders";
import { type KtpPhoto, nikHashOf, orderKtpState, readMaskedNik, readNik } from "../privacy";

// One order with everything an operator decides on (issue 17): its lines, payment, KTP state,
// masked NIK, the other live orders under the same NIK and the timeline with who did what. Reads
// only: every change goes through order-ops.ts.

export type TimelineEntry = {
  at: Date;
  fromStatus: number | null;
  toStatus: number;
  toStatusName: string;
  actor: string;
  who: string;
  note: string | null;
};

export type OpsOrderDetail = {
  id: number;
  invoiceId: string;
  statusId: number;
  statusName: string;
  createdAt: Date;
  statusChangedAt: Date;
  buyer: {
    name: string;
    email: string;
    phone: string;
    /** Masked ('3171********0001'); the full NIK opens only on record (store/privacy openOrderNik). */
    nik: string;
    nip: string | null;
    dadName: string | null;
    accountEmail: string;
    accountName: string;
    accountNip: string;
    company: string;
  };
  products: { title: string; qty: number; price: number; priceOri: number }[];
  priceOri: number;
  amount: number;
  totalAmount: number;
  insentif: boolean;
  insentifValue: number;
  promoPegawai: boolean;
  promoPegawaiValue: number;
  costLines: CostLine[];
  note: string;
  address: { full: string; kelurahan: string; kecamatan: string; kota: string; provinsi: string; kodePos: string };
  paymentMethodName: string | null;
  tenor: number | null;
  payment: {
    type: string;
    vaNumber: string | null;
    amount: number;
    discount: number;
    fee: number;
    uniqueCode: number | null;
    total: number;
    expiresAt: Date | null;
    markedPaidAt: Date | null;
    paidAt: Date | null;
  } | null;
  /** The KTP photo's state; its bytes open only through openOrderKtp (on record). */
  ktp: KtpPhoto;
  transferProofUploadId: string | null;
  deliveryPhotoUploadIds: string[];
  courier: string | null;
  trackingNumber: string | null;
  sameNik: { id: number; invoiceId: string; statusId: number; statusName: string; buyerEmail: string; createdAt: Date }[];
  timeline: TimelineEntry[];
};

/** 'buyer:12' → the buyer, 'operator:5' → that operator's e-mail, 'ops' → the CLI, gateway, system. */
function describeActor(actor: string, emails: Map<number, string>): string {
  const [kind, id] = actor.split(":");
  const email = id ? emails.get(Number(id)) : undefined;
  if (kind === "buyer") return `Pembeli${email ? ` (${email})` : ""}`;
  if (kind === "operator") return `Operator ${email ?? `#${id}`}`;
  if (actor === "ops") return "Operator (CLI)";
  if (actor === "gateway") return "Gateway pembayaran";
  if (actor === "system") return "Sistem";
  return actor;
}

/** Everything about one order for the operator; null when there is no such order. */
export async function getOrderForOps(orderId: number): Promise<OpsOrderDetail | null> {
  if (!Number.isSafeInteger(orderId) || orderId < 1 || orderId > 2_147_483_647) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      order: orders,
      statusName: orderStatuses.name,
      paymentMethodName: paymentMethods.name,
      account: { email: users.email, fullname: users.fullname, nip: users.nip },
      company: companies.name,
    })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, orders.paymentMethodId))
    .where(eq(orders.id, orderId));
  if (!row) return null;
  const o = row.order;
  const products = await orderLines(db, orderId);
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  const events = await db
    .select({
      at: orderEvents.createdAt,
      fromStatus: orderEvents.fromStatus,
      toStatus: orderEvents.toStatus,
      toStatusName: orderStatuses.name,
      actor: orderEvents.actor,
      note: orderEvents.note,
    })
    .from(orderEvents)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orderEvents.toStatus))
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.id));
  const actorIds = [...new Set(events.map((e) => Number(e.actor.split(":")[1])).filter((n) => Number.isSafeInteger(n) && n > 0))];
  const people = actorIds.length
    ? await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, actorIds))
    : [];
  const emails = new Map(people.map((p) => [p.id, p.email]));
  const sameNik = await db
    .select({
      id: orders.id,
      invoiceId: orders.invoiceId,
      statusId: orders.statusId,
      statusName: orderStatuses.name,
      buyerEmail: orders.buyerEmail,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(orderStatuses, eq(orderStatuses.id, orders.statusId))
    .where(
      and(eq(orders.buyerNikHash, o.buyerNikHash ?? (await nikHashOf(db, readNik(o.buyerNik, { orderId: o.id })))), ne(orders.id, orderId)),
    )
    .orderBy(desc(orders.createdAt))
    .limit(50);
  // Delivery photos are named in the notes of the buyer's confirmation ('bukti:<upload id>').
  const proofIds = events.flatMap((e) => (e.note?.startsWith("bukti:") ? [e.note.slice("bukti:".length)] : []));
  const deliveryPhotos = proofIds.length
    ? (
        await db
          .select({ id: uploads.id })
          .from(uploads)
          .where(and(inArray(uploads.id, proofIds), eq(uploads.purpose, "delivery-proof")))
      ).map((u) => u.id)
    : [];
  return {
    id: o.id,
    invoiceId: o.invoiceId,
    statusId: o.statusId,
    statusName: row.statusName,
    createdAt: o.createdAt,
    statusChangedAt: o.statusChangedAt,
    buyer: {
      name: o.buyerName,
      email: o.buyerEmail,
      phone: o.buyerPhoneNumber,
      nik: readMaskedNik(o.buyerNik, { orderId: o.id }),
      nip: o.buyerNip,
      dadName: o.buyerDadName,
      accountEmail: row.account.email,
      accountName: row.account.fullname,
      accountNip: row.account.nip,
      company: row.company,
    },
    products: products.map((p) => ({ title: p.title, qty: p.qty, price: p.price, priceOri: p.priceOri })),
    priceOri: o.priceOri,
    amount: o.amount,
    totalAmount: o.paymentTotal ?? o.totalAmount,
    insentif: o.insentif,
    insentifValue: o.insentifValue,
    promoPegawai: o.promoPegawai,
    promoPegawaiValue: o.promoPegawaiValue,
    costLines: costLines({
      priceOri: o.priceOri,
      amount: o.amount,
      insentifValue: o.insentifValue,
      promoPegawaiValue: o.promoPegawaiValue,
      orderProducts: products,
    }),
    note: o.note,
    address: {
      full: o.fullAddress,
      kelurahan: o.kelurahan,
      kecamatan: o.kecamatan,
      kota: o.kota,
      provinsi: o.provinsi,
      kodePos: o.kodePos,
    },
    paymentMethodName: row.paymentMethodName,
    tenor: o.tenor,
    payment: payment
      ? {
          type: payment.type,
          vaNumber: payment.vaNumber,
          amount: payment.amount,
          discount: payment.discount,
          fee: payment.fee,
          uniqueCode: payment.uniqueCode,
          total: payment.total,
          expiresAt: payment.expiresAt,
          markedPaidAt: payment.markedPaidAt,
          paidAt: payment.paidAt,
        }
      : null,
    ktp: await orderKtpState(o.id),
    transferProofUploadId: payment?.proofUploadId ?? null,
    deliveryPhotoUploadIds: deliveryPhotos,
    courier: o.courier,
    trackingNumber: o.trackingNumber,
    sameNik,
    timeline: events.map((e) => ({ ...e, who: describeActor(e.actor, emails) })),
  };
}
