import { MANUAL_TRANSFER_ACCOUNT } from "~/lib/payment-channels";
import type { HowToPay, OpenedPayment, OpenPaymentRequest, PaymentGateway } from "./types";

// The built-in sandbox gateway (PAYMENT_GATEWAY=sandbox, the default): issues virtual-account numbers
// without a bank, so testers and the demo can go through the whole flow. Paying is simulated by
// sandbox-pay.ts, which sends the same signed webhook a real gateway would.

/** Sandbox virtual-account prefixes per bank (a real gateway's come from its bank contracts). */
export const SANDBOX_VA_PREFIX: Record<string, string> = {
  "BNI-VA": "8808",
  "BRI-VA": "26215",
  "MANDIRI-VA": "89608",
};

export const SANDBOX_VALIDITY_MS = 24 * 60 * 60 * 1000;

/** prefix + the order id, 16 digits: unique per order without a counter, and stable on a repeat. */
export function sandboxVaNumber(methodCode: string, orderId: number): string | null {
  const prefix = SANDBOX_VA_PREFIX[methodCode];
  if (!prefix) return null;
  return prefix + String(orderId).padStart(16 - prefix.length, "0");
}

export const sandboxGateway: PaymentGateway = {
  name: "sandbox",

  async openPayment(request: OpenPaymentRequest): Promise<OpenedPayment> {
    const { method, orderId } = request;
    const expiresAt = new Date(Date.now() + SANDBOX_VALIDITY_MS);
    const gatewayRef = `sandbox-${orderId}`;
    if (method.type === "virtual_account") {
      const vaNumber = sandboxVaNumber(method.code, orderId);
      if (!vaNumber) throw new Error(`sandbox gateway: no VA prefix for ${method.code}`);
      return { vaNumber, expiresAt, redirectUrl: null, gatewayRef };
    }
    if (method.type === "bank_transfer")
      return { vaNumber: MANUAL_TRANSFER_ACCOUNT.bankAccountNumber, expiresAt, redirectUrl: null, gatewayRef };
    // Instalment and paylater wait for the issuer's approval (status 301): nothing to pay to here.
    return { vaNumber: null, expiresAt: null, redirectUrl: null, gatewayRef };
  },

  howToPay(method, payTo) {
    return howTo(method.code, method.type, payTo ?? "-");
  },

  // The demo's gateway refunds at once, with a reference named by the refund's key (decision: refunds).
  async refund(gatewayRef, request) {
    return { kind: "refunded", reference: `${gatewayRef}-${request.key}` };
  },
};

const BANK_OF: Record<string, { bank: string; mobile: string; internet: string }> = {
  "BNI-VA": { bank: "BNI", mobile: "BNI Mobile Banking", internet: "BNI Internet Banking (ibank.bni.co.id)" },
  "BRI-VA": { bank: "BRI", mobile: "BRImo", internet: "Internet Banking BRI (ib.bri.co.id)" },
  "MANDIRI-VA": { bank: "Mandiri", mobile: "Livin' by Mandiri", internet: "Mandiri Internet Banking" },
};

function howTo(code: string, type: OpenPaymentRequest["method"]["type"], payTo: string): HowToPay[] {
  const bank = BANK_OF[code];
  // A manual transfer's how-to follows the store's account (store/payments/transfer-bank.ts).
  if (!bank || type !== "virtual_account") return [];
  const escapedPayTo = payTo.replace(/[^0-9A-Za-z-]/g, "");
  const va = `<b>${escapedPayTo}</b>`;
  return [
    {
      type: "ATM",
      content: `<ol><li>Masukkan kartu ATM ${bank.bank} dan PIN Anda.</li><li>Pilih <b>Menu Lainnya</b> &gt; <b>Transfer</b> &gt; <b>Virtual Account Billing</b>.</li><li>Masukkan Nomor Virtual Account ${va}.</li><li>Periksa nama dan Total Pembayaran yang tampil.</li><li>Pilih <b>Ya</b> untuk membayar. Simpan struk Anda.</li></ol>`,
    },
    {
      type: "Mobile Banking",
      content: `<ol><li>Buka aplikasi ${bank.mobile} dan masuk.</li><li>Pilih <b>Pembayaran</b> &gt; <b>Virtual Account</b>.</li><li>Masukkan Nomor Virtual Account ${va}.</li><li>Periksa nama dan Total Pembayaran yang tampil.</li><li>Konfirmasi dengan PIN transaksi.</li></ol>`,
    },
    {
      type: "Internet Banking",
      content: `<ol><li>Masuk ke ${bank.internet}.</li><li>Pilih <b>Pembayaran</b> &gt; <b>Virtual Account</b>.</li><li>Masukkan Nomor Virtual Account ${va}.</li><li>Periksa nama dan Total Pembayaran yang tampil.</li><li>Konfirmasi dengan token atau kode otentikasi.</li></ol>`,
    },
  ];
}
