import crypto from "node:crypto";
import { and, eq, isNull, notInArray, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import {
  accountTokens,
  balanceEntries,
  checkoutDrafts,
  dataExports,
  notifications,
  orders,
  otpCodes,
  refunds,
  rosterEntries,
  rosterLinkRequests,
  savedAddresses,
  staffRoles,
  uploads,
  users,
} from "../../db/schema";
import { env } from "../../env";
import { FINAL_STATUSES, RELEASED_STATUSES } from "../../../lib/order-status";
import { PRIVACY_POLICY_PATH } from "../../../lib/privacy";
import { defineMail, enqueueMessage, renderEmail } from "../messages";
import { checkPassword, recordAudit, revokeAllSessions } from "../people";

// 'Hapus Akun' (issue 35 item 4, decision 0059): the person is erased, the books are kept. Tax law
// (UU KUP art. 28(11)) keeps an order's financial rows 10 years, so the orders, their payments and
// events and the balance ledger stay, under a pseudonym; everything that names or reaches the person
// goes, in one transaction: a failure leaves the account as it was.

export const ERASE_WRONG_PASSWORD = "Kata sandi salah. Akun tidak dihapus.";
export const ERASE_OPEN_ORDER =
  "Akun belum dapat dihapus karena masih ada pesanan yang berjalan. Selesaikan atau batalkan pesanan tersebut terlebih dahulu.";
export const ERASE_MONEY_DUE =
  "Akun belum dapat dihapus karena masih ada saldo atau penarikan saldo yang sedang diproses. Selesaikan terlebih dahulu atau hubungi admin.";
/** A refund not yet made, by what it waits for (issue 43 item 7: it may wait for the buyer, not for the store). */
export const eraseRefundOpen = (invoiceId: string, waitsForBuyer: boolean) =>
  waitsForBuyer
    ? `Akun belum dapat dihapus karena pengembalian dana untuk pesanan ${invoiceId} menunggu data rekening Anda. Kirim data rekening pada detail pesanan, lalu coba lagi.`
    : `Akun belum dapat dihapus karena pengembalian dana untuk pesanan ${invoiceId} sedang diproses tim keuangan. Coba lagi setelah dana dikembalikan.`;
export const ERASE_STAFF = "Akun petugas tidak dapat dihapus dari sini. Hubungi admin untuk mencabut peran Anda terlebih dahulu.";

/** A refusal may name the order to go to (an open refund's), so the page can link it. */
export type ErasureResult = { ok: true; pseudonym: string } | { ok: false; message: string; field?: "password"; orderId?: number };

/** Refusal raised inside the transaction (after the row lock), so the checks and the erasure see one state. */
class Refused extends Error {
  constructor(
    readonly answer: string,
    readonly orderId?: number,
  ) {
    super(answer);
  }
}

/**
 * Erases the account `userId` after checking its `password`, unless an order is open, money is due
 * to the buyer (a positive balance or a withdrawal in progress) or the account is staff. The user's
 * row is locked first (as a withdrawal locks it), so a withdrawal cannot slip in between.
 */
export async function eraseAccount(userId: number, password: string): Promise<ErasureResult> {
  if (!(await checkPassword(userId, password))) return { ok: false, field: "password", message: ERASE_WRONG_PASSWORD };
  const db = await getDb();
  const pseudonym = `Akun Dihapus #${crypto.randomBytes(4).toString("hex").toUpperCase()}`;
  try {
    await db.transaction(async (tx) => {
      // The checkout draft first, in the order the checkout takes it (it locks the draft, then its
      // insert locks the user row): a checkout already past its checks finishes first and its order
      // is seen below as open; one that comes later finds its draft erased (decision 0059).
      await tx.select({ userId: checkoutDrafts.userId }).from(checkoutDrafts).where(eq(checkoutDrafts.userId, userId)).for("update");
      const [person] = await tx
        .select({ email: users.email, fullname: users.fullname })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      if (!person) throw new Refused(ERASE_WRONG_PASSWORD);
      const [staff] = await tx.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId)).limit(1);
      if (staff) throw new Refused(ERASE_STAFF);
      const [open] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.userId, userId), notInArray(orders.statusId, [...FINAL_STATUSES])))
        .limit(1);
      if (open) throw new Refused(ERASE_OPEN_ORDER);
      const [money] = await tx
        .select({
          balance: sql<number>`coalesce(sum(case when ${balanceEntries.kind} = 'credit' then ${balanceEntries.amount}
            when ${balanceEntries.status} <> 'Dibatalkan' then -${balanceEntries.amount} else 0 end), 0)::int`,
          pending: sql<number>`count(*) filter (where ${balanceEntries.status} = 'Dalam Proses')::int`,
        })
        .from(balanceEntries)
        .where(eq(balanceEntries.userId, userId));
      if (Number(money?.balance ?? 0) > 0 || Number(money?.pending ?? 0) > 0) throw new Refused(ERASE_MONEY_DUE);
      // A refund not yet made is money the store still owes the buyer (issue 36): it needs their account.
      // The refusal names the order and what the refund waits for: the buyer's own details, or finance.
      const [owed] = await tx
        .select({ orderId: orders.id, invoiceId: orders.invoiceId, state: refunds.state })
        .from(refunds)
        .innerJoin(orders, eq(orders.id, refunds.orderId))
        // A refund closed because its money never came ('Dana tidak diterima', issue 45) owes nothing.
        .where(and(eq(orders.userId, userId), notInArray(refunds.state, ["refunded", "not-received"])))
        .orderBy(refunds.id)
        .limit(1);
      if (owed) throw new Refused(eraseRefundOpen(owed.invoiceId, owed.state !== "processing"), owed.orderId);

      // The goodbye e-mail carries its address (the account will not have one when it is sent).
      await enqueueMessage(tx, "mail", { kind: "account-erased", email: person.email, fullname: person.fullname });

      // The orders keep their figures, statuses, dates, invoice and region; the buyer's copy of
      // name, contact, NIK, NIP, father's name, street address and note goes. The NIK's keyed hash
      // stays on an incentive order that holds its unit (issue 45 item 9): the one-NIK-one-incentive
      // rule is the government's, and the store must still refuse that NIK a second unit (also to
      // this person's new account) and find the order by it in /ops/search, for as long as the
      // order's records are kept (decision 0070). The hash alone names nobody: its key is the store's.
      const keepsUnit = sql`${orders.insentif} and ${orders.statusId} not in (${sql.join(
        RELEASED_STATUSES.map((s) => sql`${s}`),
        sql`, `,
      )})`;
      await tx
        .update(orders)
        .set({
          buyerName: pseudonym,
          buyerEmail: "",
          buyerPhoneNumber: "",
          buyerNik: "",
          buyerNikHash: sql`case when ${keepsUnit} then ${orders.buyerNikHash} else null end`,
          buyerNip: null,
          buyerDadName: null,
          fullAddress: "",
          note: "",
          updatedAt: new Date(),
        })
        .where(eq(orders.userId, userId));
      // Refunds made keep their amount, state and transfer reference; the buyer's bank account goes.
      await tx
        .update(refunds)
        .set({ accountNumber: null, accountHolder: null, updatedAt: new Date() })
        .where(sql`${refunds.orderId} in (select ${orders.id} from ${orders} where ${orders.userId} = ${userId})`);
      // KTP photos: the bytes go (the row stays where an order points at it, as retention leaves it).
      await tx
        .update(uploads)
        .set({ bytes: new Uint8Array(0), keyId: null, size: 0, deletedAt: new Date() })
        .where(and(eq(uploads.ownerId, userId), eq(uploads.purpose, "ktp"), isNull(uploads.deletedAt)));
      await tx.delete(checkoutDrafts).where(eq(checkoutDrafts.userId, userId));
      await tx.delete(savedAddresses).where(eq(savedAddresses.userId, userId));
      await tx.delete(notifications).where(eq(notifications.userId, userId));
      await tx.delete(otpCodes).where(eq(otpCodes.userId, userId));
      await tx.delete(accountTokens).where(eq(accountTokens.userId, userId));
      await tx.delete(dataExports).where(eq(dataExports.userId, userId));
      // The roster entry is the employer's record: it stays, free for the person to register again.
      await tx.update(rosterEntries).set({ userId: null, updatedAt: new Date() }).where(eq(rosterEntries.userId, userId));
      // The account's requests for an entry go with it (decision 0069): nobody confirms a pseudonym.
      await tx.delete(rosterLinkRequests).where(eq(rosterLinkRequests.userId, userId));
      await revokeAllSessions(userId, undefined, tx);
      const slug = pseudonym.slice(pseudonym.indexOf("#") + 1).toLowerCase();
      await tx
        .update(users)
        .set({
          fullname: pseudonym,
          username: `dihapus-${slug}`,
          // Unique and undeliverable (.invalid, RFC 2606): the real address is free to register again.
          email: `dihapus-${slug}-${userId}@akun-dihapus.invalid`,
          phoneNo: "",
          nip: "",
          // No argon2 hash matches this: nobody signs in to the pseudonym.
          passwordHash: "!",
          resendAvailableAt: null,
          updatedAt: new Date(),
        })
        .where(eq(users.id, userId));
      // The audit row names the account by its id and pseudonym only.
      await recordAudit(tx, userId, "account-erased", { detail: pseudonym });
    });
  } catch (error) {
    if (error instanceof Refused)
      return error.orderId ? { ok: false, message: error.answer, orderId: error.orderId } : { ok: false, message: error.answer };
    throw error;
  }
  return { ok: true, pseudonym };
}

defineMail("account-erased", async (data) =>
  renderEmail({
    to: String(data.email),
    subject: "Akun Toko Pegawai PLN Anda Telah Dihapus",
    greeting: `Halo ${String(data.fullname)},`,
    lines: [
      "Sesuai permintaan Anda, akun Toko Pegawai PLN Anda telah dihapus. Nama, email, nomor HP, NIP, alamat, NIK dan foto KTP Anda telah dihapus dari sistem kami.",
      "Catatan transaksi pesanan Anda (nilai, status dan pembayaran) tetap kami simpan tanpa identitas Anda selama 10 tahun, sesuai kewajiban perpajakan.",
      "Anda dapat mendaftar kembali kapan saja dengan email ini.",
    ],
    button: { label: "Kebijakan Privasi", link: `${env().appUrl}${PRIVACY_POLICY_PATH}` },
    footer: "Jika Anda tidak meminta penghapusan akun ini, segera hubungi admin Toko Pegawai PLN.",
  }),
);
