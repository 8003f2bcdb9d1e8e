// Limits of the back office's decision forms (issue 17), shared by the store's checks and the form
// fields' own limits, and the table of the decisions themselves (both sides: nothing here reaches a
// buyer's page).

import { ORDER_STATUS, type OrderStatusId } from "./order-status";
import type { StaffRole } from "./staff-roles";

/** The couriers of the 'Kurir' select; 'Lainnya' asks for the courier's name. */
export const COURIERS = [
  "JNE",
  "J&T Express",
  "SiCepat",
  "AnterAja",
  "Pos Indonesia",
  "TIKI",
  "Ninja Xpress",
  "Lion Parcel",
  "Wahana",
  "Diantar Dealer",
] as const;
export const OTHER_COURIER = "Lainnya";
export const REASON_MAX = 300;
export const TRACKING_MAX = 50;
export const COURIER_NAME_MAX = 60;

/**
 * The operators' decisions (DESIGN §6), each one allowed move of the status machine: the store
 * applies `from → to` with `note` in the event row, the order screen offers the decisions whose
 * `from` is the order's status (an 'approve' button with its `hint`, a 'reject' form asking
 * 'Alasan', a 'ship' form asking 'Kurir' and 'Nomor Resi'), and `role` is who may take it.
 * A new decision is one entry here (plus its SUCCESS toast and a CLI command).
 */
export const OPS_TRANSITIONS = {
  "approve-incentive": {
    from: ORDER_STATUS.INCENTIVE_REVIEW,
    to: ORDER_STATUS.AWAITING_PAYMENT,
    kind: "approve",
    role: "pesanan",
    label: "Setujui",
    hint: "Data KTP, NIK dan nama ayah kandung sesuai.",
    note: "Insentif disetujui",
    success: "Insentif disetujui. Pembeli dapat melanjutkan pembayaran.",
  },
  "reject-incentive": {
    from: ORDER_STATUS.INCENTIVE_REVIEW,
    to: ORDER_STATUS.EXPIRED_OR_REJECTED,
    kind: "reject",
    role: "pesanan",
    label: "Tolak",
    note: "Insentif ditolak",
    success: "Pengajuan insentif ditolak.",
  },
  "approve-installment": {
    from: ORDER_STATUS.INSTALLMENT_REVIEW,
    to: ORDER_STATUS.PAYMENT_RECEIVED,
    kind: "approve",
    role: "pesanan",
    label: "Setujui",
    hint: "Pengajuan cicilan/paylater disetujui.",
    note: "Cicilan disetujui",
    success: "Cicilan disetujui.",
  },
  "reject-installment": {
    from: ORDER_STATUS.INSTALLMENT_REVIEW,
    to: ORDER_STATUS.EXPIRED_OR_REJECTED,
    kind: "reject",
    role: "pesanan",
    label: "Tolak",
    note: "Cicilan ditolak",
    success: "Pengajuan cicilan ditolak.",
  },
  "verify-transfer": {
    from: ORDER_STATUS.TRANSFER_REVIEW,
    to: ORDER_STATUS.PAYMENT_RECEIVED,
    kind: "approve",
    role: "pesanan",
    label: "Verifikasi",
    hint: "Bukti transfer sesuai dengan jumlah dan kode unik.",
    note: "Bukti transfer terverifikasi",
    success: "Bukti transfer terverifikasi. Pembayaran diterima.",
  },
  // The buyer may upload a proof again, in a fresh payment window. As every rejection of a proof it
  // says whether the money arrived: if so it becomes a refund awaiting finance (issue 45 item 1).
  "reject-transfer": {
    from: ORDER_STATUS.TRANSFER_REVIEW,
    to: ORDER_STATUS.AWAITING_PAYMENT,
    kind: "reject",
    role: "pesanan",
    label: "Tolak",
    asksMoneyReceived: true,
    note: "Bukti transfer ditolak",
    success: "Bukti transfer ditolak. Pembeli dapat mengirim bukti baru.",
  },
  // For good: the order cannot go on (issue 36). With 'Dana diterima' the transfer arrived: a refund
  // 'Menunggu Konfirmasi Dana' is created in the same transaction (finance confirms the amount).
  "reject-transfer-final": {
    from: ORDER_STATUS.TRANSFER_REVIEW,
    to: ORDER_STATUS.EXPIRED_OR_REJECTED,
    kind: "reject",
    role: "pesanan",
    label: "Tolak Permanen",
    reasonLabel: "Alasan (tolak permanen)",
    asksMoneyReceived: true,
    note: "Bukti transfer ditolak",
    success: "Bukti transfer ditolak permanen. Pesanan ditutup.",
  },
  ship: {
    from: ORDER_STATUS.PAYMENT_RECEIVED,
    to: ORDER_STATUS.SHIPPED,
    kind: "ship",
    role: "pesanan",
    label: "Kirim",
    note: "Dikirim",
    success: "Pesanan dikirim.",
  },
  // 'Batalkan dan Kembalikan Dana': the store cannot deliver a paid order; the stock unit returns and
  // all the money received is refunded (decision 0057, a departure from the spec's status table).
  "cancel-refund": {
    from: ORDER_STATUS.PAYMENT_RECEIVED,
    to: ORDER_STATUS.CANCELLED,
    kind: "reject",
    role: "pesanan",
    label: "Batalkan dan Kembalikan Dana",
    reasonLabel: "Alasan pembatalan",
    note: "Dibatalkan oleh toko, dana dikembalikan",
    success: "Pesanan dibatalkan. Pengembalian dana dibuat dan pembeli diberi tahu.",
  },
} as const satisfies Record<string, OpsTransition>;

export type OpsTransition = {
  from: OrderStatusId;
  to: OrderStatusId;
  /** How the order screen asks for it: a button, a form with 'Alasan', or the shipping form. */
  kind: "approve" | "reject" | "ship";
  /** The staff role that may take it. */
  role: StaffRole;
  label: string;
  /** The line above an 'approve' button: what the operator has checked. */
  hint?: string;
  /** A rejection's label for its reason when the status offers more than one ('Alasan' otherwise). */
  reasonLabel?: string;
  /** A rejection that must say whether the money arrived ('Dana diterima': a refund awaiting finance's confirmation). */
  asksMoneyReceived?: true;
  /** The event row's note (a rejection's note is the operator's reason). */
  note: string;
  /** The toast after it was applied. */
  success: string;
};
export type OpsDecision = keyof typeof OPS_TRANSITIONS;

export const isOpsDecision = (value: unknown): value is OpsDecision => typeof value === "string" && Object.hasOwn(OPS_TRANSITIONS, value);
export const isRejection = (decision: OpsDecision) => OPS_TRANSITIONS[decision].kind === "reject";

/**
 * The decisions an order in `statusId` offers, in the table's order. `paidAtGateway`: the order's
 * payment is one the gateway collects itself (a Midtrans card instalment): no 'Setujui', only its
 * settlement takes it to 300 (issue 45 item 4).
 */
export function decisionsFrom(
  statusId: number,
  options: { paidAtGateway?: boolean } = {},
): {
  intent: OpsDecision;
  kind: OpsTransition["kind"];
  label: string;
  hint: string | null;
  reasonLabel: string;
  asksMoneyReceived: boolean;
}[] {
  return (Object.entries(OPS_TRANSITIONS) as [OpsDecision, OpsTransition][])
    .filter(([intent, t]) => t.from === statusId && !(options.paidAtGateway && intent === "approve-installment"))
    .map(([intent, t]) => ({
      intent,
      kind: t.kind,
      label: t.label,
      hint: t.hint ?? null,
      reasonLabel: t.reasonLabel ?? "Alasan",
      asksMoneyReceived: !!t.asksMoneyReceived,
    }));
}
