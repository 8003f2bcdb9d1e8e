// A fake Midtrans for the tests (issue 18): a small HTTP server answering the endpoints the store
// calls, shaped as docs.midtrans.com shows them — amounts as strings ("24145.00"), status codes as
// strings, va_numbers / permata_va_number, bill_key + biller_code for Mandiri (echannel), Snap's
// token + redirect_url, a card capture challenged by the fraud detection until approved or denied —
// and able to send signed HTTP notifications. It checks the server key in
// the Basic Authorization header like Midtrans does.
//
// Plain erasable TypeScript with node: imports only, so Node 24 runs it directly (the e2e server
// script imports it) as well as vitest. Control endpoints for the browser tests live under /_fake/.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeTransaction = {
  order_id: string;
  transaction_id: string;
  gross_amount: string;
  payment_type: "bank_transfer" | "echannel" | "credit_card";
  transaction_status: "pending" | "settlement" | "capture" | "expire" | "cancel" | "deny" | "refund" | "partial_refund";
  // The refunds made through POST /v2/{order_id}/refund, one per refund_key (issue 36).
  refunds?: { refund_chargeback_id: number; refund_key: string; refund_amount: string; reason: string; created_at: string }[];
  refund_amount?: string;
  // Card captures pass Midtrans's fraud detection (FDS): accept, or challenge until the merchant
  // approves (capture + accept) or denies it (deny + deny) in the dashboard or through the API.
  fraud_status: "accept" | "challenge" | "deny";
  transaction_time: string;
  settlement_time?: string;
  expiry_time?: string;
  va_numbers?: { bank: string; va_number: string }[];
  permata_va_number?: string;
  bill_key?: string;
  biller_code?: string;
  installment_term?: number;
  bank?: string;
};

type SnapSession = {
  token: string;
  order_id: string;
  gross_amount: number;
  finish: string | null;
  terms: Record<string, number[]>;
  required: boolean;
  enabled: string[];
};

export type FakeMidtransOptions = { serverKey: string; notificationUrl?: string; host?: string; port?: number };

export type Notified = { status: number; body: unknown };

const STATUS_CODE: Record<FakeTransaction["transaction_status"], string> = {
  pending: "201",
  settlement: "200",
  capture: "200",
  expire: "407",
  cancel: "200",
  deny: "202",
  refund: "200",
  partial_refund: "200",
};
const STATUS_MESSAGE: Record<FakeTransaction["transaction_status"], string> = {
  pending: "Success, transaction is found",
  settlement: "Success, transaction is found",
  capture: "Success, transaction is found",
  expire: "Success, transaction is found",
  cancel: "Success, transaction is found",
  deny: "Success, transaction is found",
  refund: "Success, transaction is found",
  partial_refund: "Success, transaction is found",
};

/** "2026-11-25 21:03:11": Midtrans's times are Jakarta time without a zone. */
export function jakarta(date: Date): string {
  const wib = new Date(date.getTime() + 7 * 3600_000).toISOString();
  return `${wib.slice(0, 10)} ${wib.slice(11, 19)}`;
}

const amountText = (n: number) => `${Math.trunc(n)}.00`;

export class FakeMidtrans {
  readonly serverKey: string;
  notificationUrl: string | undefined;
  readonly transactions = new Map<string, FakeTransaction>();
  readonly snaps = new Map<string, SnapSession>();
  /** Every request the store made: "POST /v2/charge", "GET /v2/X/status" … */
  readonly calls: string[] = [];
  /** The next N charges (Core API or Snap) answer 500, or never answer (timeout) with `hang`. */
  failNextCharges = 0;
  hangNextCharges = 0;
  /** The next N Core API charges are made, but the answer is a 500 (the store never learns the VA). */
  loseNextChargeAnswers = 0;
  /** The next N card captures are challenged by the fraud detection (capture + fraud_status challenge). */
  challengeNextCaptures = 0;
  /** order_id → what the status API says instead of the truth (a gateway that disagrees with a notification). */
  readonly statusOverride = new Map<string, Partial<FakeTransaction>>();
  /** The last request body per path (e.g. the charge), for assertions. */
  readonly lastBody = new Map<string, Record<string, unknown>>();
  #server: http.Server;
  #url = "";
  #counter = 0;

  constructor(options: FakeMidtransOptions) {
    this.serverKey = options.serverKey;
    this.notificationUrl = options.notificationUrl;
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ status_code: "500", status_message: String(error) }));
      });
    });
  }

  get url(): string {
    return this.#url;
  }

  async listen(port = 0, host = "127.0.0.1"): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(port, host, resolve));
    this.#url = `http://${host}:${(this.#server.address() as AddressInfo).port}`;
    return this.#url;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  signature(orderId: string, statusCode: string, grossAmount: string, key = this.serverKey): string {
    return crypto.createHash("sha512").update(`${orderId}${statusCode}${grossAmount}${key}`).digest("hex");
  }

  /** The status API's answer for a transaction (with any override), as Midtrans shapes it. */
  statusOf(orderId: string): Record<string, unknown> | null {
    const tx = this.transactions.get(orderId);
    if (!tx) return null;
    const shown = { ...tx, ...this.statusOverride.get(orderId) } as FakeTransaction;
    const { bank: _bank, ...fields } = shown;
    return {
      status_code: STATUS_CODE[shown.transaction_status],
      status_message: STATUS_MESSAGE[shown.transaction_status],
      merchant_id: "G000000000",
      currency: "IDR",
      ...fields,
    };
  }

  /** The buyer pays at the bank (VA, bill) or the card is captured: the transaction settles. */
  pay(orderId: string, at = new Date()): FakeTransaction {
    const tx = this.#tx(orderId);
    if (tx.transaction_status !== "pending") throw new Error(`fake midtrans: ${orderId} is ${tx.transaction_status}`);
    tx.transaction_status = tx.payment_type === "credit_card" ? "capture" : "settlement";
    if (tx.payment_type === "credit_card" && this.challengeNextCaptures > 0) {
      this.challengeNextCaptures--;
      tx.fraud_status = "challenge";
    }
    tx.settlement_time = jakarta(at);
    return tx;
  }

  /**
   * The merchant's decision on a challenged capture (docs.midtrans.com: Approve / Deny Transaction):
   * approve → capture + accept; deny → deny + deny. Anything else: 412, as Midtrans answers.
   */
  review(orderId: string, decision: "approve" | "deny"): FakeTransaction | null {
    const tx = this.#tx(orderId);
    if (tx.transaction_status !== "capture" || tx.fraud_status !== "challenge") return null;
    if (decision === "approve") tx.fraud_status = "accept";
    else Object.assign(tx, { transaction_status: "deny", fraud_status: "deny" });
    return tx;
  }

  /** Midtrans expires a transaction on its own (custom_expiry reached). */
  expire(orderId: string): FakeTransaction {
    const tx = this.#tx(orderId);
    if (tx.transaction_status === "pending") tx.transaction_status = "expire";
    return tx;
  }

  /**
   * Sends the HTTP notification for a transaction as it is now, signed with the server key, or with
   * `claim` changing what the BODY says (the status API still tells the truth) and `key` another key.
   */
  async notify(orderId: string, options: { claim?: Partial<FakeTransaction>; key?: string; url?: string } = {}): Promise<Notified> {
    const url = options.url ?? this.notificationUrl;
    if (!url) throw new Error("fake midtrans: no notification URL");
    const body = this.notificationBody(orderId, options);
    const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  notificationBody(orderId: string, options: { claim?: Partial<FakeTransaction>; key?: string } = {}): Record<string, unknown> {
    const tx = { ...this.#tx(orderId), ...options.claim } as FakeTransaction;
    const status_code = STATUS_CODE[tx.transaction_status];
    const { bank: _bank, ...fields } = tx;
    return {
      ...fields,
      status_code,
      status_message: "midtrans payment notification",
      merchant_id: "G000000000",
      currency: "IDR",
      signature_key: this.signature(tx.order_id, status_code, tx.gross_amount, options.key),
    };
  }

  #tx(orderId: string): FakeTransaction {
    const tx = this.transactions.get(orderId);
    if (!tx) throw new Error(`fake midtrans: no transaction ${orderId}`);
    return tx;
  }

  #authorised(req: http.IncomingMessage): boolean {
    return req.headers.authorization === `Basic ${Buffer.from(`${this.serverKey}:`).toString("base64")}`;
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const method = req.method ?? "GET";
    if (!path.startsWith("/_fake/") && !path.startsWith("/snap/v2/vtweb/")) this.calls.push(`${method} ${path}`);

    // ——— Snap's payment page (the buyer's browser), and the browser tests' controls
    const page = /^\/snap\/v2\/vtweb\/([A-Za-z0-9-]+)(\/pay)?$/.exec(path);
    if (page) return this.#snapPage(page[1]!, !!page[2] && method === "POST", res);
    if (method === "POST" && path === "/_fake/challenge-next") {
      this.challengeNextCaptures++;
      return json(200, { challengeNextCaptures: this.challengeNextCaptures });
    }
    // A browser test makes Midtrans refuse the refunds of one transaction (not the whole fake's: the
    // js and nojs projects share it).
    const refuse = /^\/_fake\/refuse-refunds\/([A-Za-z0-9\-_~.]+)$/.exec(path);
    if (refuse && method === "POST") {
      this.refuseRefundsOf.add(refuse[1]!);
      return json(200, { refused: [...this.refuseRefundsOf] });
    }
    const control = /^\/_fake\/(pay|expire|notify|transaction|approve|deny)\/([A-Za-z0-9\-_~.]+)$/.exec(path);
    if (control) {
      const [, action, orderId] = control;
      if (!this.transactions.has(orderId!)) return json(404, { error: "no such transaction" });
      if (action === "pay") this.pay(orderId!);
      if (action === "expire") this.expire(orderId!);
      if ((action === "approve" || action === "deny") && !this.review(orderId!, action))
        return json(412, { error: "not a challenged capture" });
      if (action === "transaction") return json(200, this.transactions.get(orderId!));
      const notified = await this.notify(orderId!);
      return json(200, { transaction: this.transactions.get(orderId!), notified });
    }
    if (method === "GET" && path === "/_fake/transactions") return json(200, [...this.transactions.values()]);

    if (!this.#authorised(req))
      return json(401, { status_code: "401", status_message: "Unknown Merchant server_key/id", id: crypto.randomUUID() });
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    this.lastBody.set(path, body);

    if (method === "POST" && (path === "/v2/charge" || path === "/snap/v1/transactions")) {
      if (this.hangNextCharges > 0) {
        this.hangNextCharges--;
        return; // never answers: the client's timeout fires
      }
      if (this.failNextCharges > 0) {
        this.failNextCharges--;
        return json(500, { status_code: "500", status_message: "Sorry, an unexpected error occurred" });
      }
      if (path === "/v2/charge" && this.loseNextChargeAnswers > 0) {
        this.loseNextChargeAnswers--;
        this.#charge(body, () => undefined);
        return json(500, { status_code: "500", status_message: "Sorry, an unexpected error occurred" });
      }
      return path === "/v2/charge" ? this.#charge(body, json) : this.#snap(body, json);
    }
    const refund = /^\/v2\/([A-Za-z0-9\-_~.]+)\/refund$/.exec(path);
    if (refund && method === "POST") return this.#refund(refund[1]!, body, json);
    const status = /^\/v2\/([A-Za-z0-9\-_~.]+)\/(status|expire|approve|deny)$/.exec(path);
    if (status) {
      const orderId = status[1]!;
      const tx = this.transactions.get(orderId);
      if (!tx) return json(404, { status_code: "404", status_message: "Transaction doesn't exist.", id: crypto.randomUUID() });
      if (status[2] === "status" && method === "GET") return json(200, this.statusOf(orderId));
      if ((status[2] === "approve" || status[2] === "deny") && method === "POST") {
        if (!this.review(orderId, status[2]))
          return json(412, { status_code: "412", status_message: "Merchant cannot modify the status of the transaction" });
        return json(200, {
          ...this.statusOf(orderId),
          status_code: "200",
          status_message: status[2] === "approve" ? "Success, transaction is approved" : "Success, transaction is denied",
        });
      }
      if (status[2] === "expire" && method === "POST") {
        if (tx.transaction_status !== "pending")
          return json(412, { status_code: "412", status_message: "Merchant cannot modify the status of the transaction" });
        tx.transaction_status = "expire";
        return json(200, { ...this.statusOf(orderId), status_code: "407", status_message: "Success, transaction has expired" });
      }
    }
    return json(404, { status_code: "404", status_message: "The requested resource is not found" });
  }

  /** Refunds the fake refuses from now on (Midtrans answers 412: the transaction cannot be refunded). */
  refuseRefunds = false;
  /** The transactions (order_id) whose refunds the fake refuses, as `refuseRefunds` does for all. */
  readonly refuseRefundsOf = new Set<string>();
  /**
   * The next N refunds are made, but the call is answered 412 all the same (issue 45 item 3: a refusal
   * is no proof that nothing was refunded under that refund_key; the status API lists it).
   */
  refuseAnswersOfNextRefunds = 0;
  /**
   * The next N refund calls are answered 412 with nothing made yet; Midtrans makes them later
   * (`makeDeferredRefunds`), and its notification then reports a refund the store was told was refused.
   */
  deferNextRefunds = 0;
  readonly #deferred: { orderId: string; key: string; amount: number | undefined; reason: string }[] = [];
  #nextChargebackId = 1;

  /**
   * POST /v2/{order_id}/refund as Midtrans documents it: card payments only, settled (or captured)
   * ones, never more than is left; `refund_key` names a refund, so the same key again answers the
   * same refund and moves no money (a retry); no key: Midtrans makes one up.
   */
  #refund(orderId: string, body: Record<string, unknown>, json: (status: number, body: unknown) => void) {
    const tx = this.transactions.get(orderId);
    if (!tx) return json(404, { status_code: "404", status_message: "Transaction doesn't exist.", id: crypto.randomUUID() });
    const key = typeof body.refund_key === "string" && body.refund_key ? body.refund_key : `mt-${crypto.randomUUID()}`;
    const answer = (r: NonNullable<FakeTransaction["refunds"]>[number]) => ({
      status_code: "200",
      status_message: "Success, refund request is approved",
      transaction_id: tx.transaction_id,
      order_id: tx.order_id,
      gross_amount: tx.gross_amount,
      currency: "IDR",
      payment_type: tx.payment_type,
      transaction_time: tx.transaction_time,
      transaction_status: tx.transaction_status,
      refund_chargeback_id: r.refund_chargeback_id,
      refund_amount: r.refund_amount,
      refund_key: r.refund_key,
    });
    const cannot = (status_message: string) => json(412, { status_code: "412", status_message, id: crypto.randomUUID() });
    const earlier = tx.refunds?.find((r) => r.refund_key === key);
    if (earlier) return json(200, answer(earlier));
    if (this.refuseRefunds || this.refuseRefundsOf.has(orderId)) return cannot("Merchant cannot modify the status of the transaction");
    const amount = body.amount === undefined ? undefined : Number(body.amount);
    const reason = typeof body.reason === "string" ? body.reason : "";
    if (this.deferNextRefunds > 0) {
      this.deferNextRefunds--;
      this.#deferred.push({ orderId, key, amount, reason });
      return cannot("Merchant cannot modify the status of the transaction");
    }
    const made = this.#makeRefund(tx, key, amount, reason);
    if (typeof made === "string") return cannot(made);
    if (this.refuseAnswersOfNextRefunds > 0) {
      this.refuseAnswersOfNextRefunds--;
      return cannot("Merchant cannot modify the status of the transaction");
    }
    return json(200, answer(made));
  }

  /** Midtrans makes the refunds of `orderId` it refused on the call (`deferNextRefunds`); how many it made. */
  makeDeferredRefunds(orderId: string): number {
    let made = 0;
    for (const deferred of this.#deferred.filter((d) => d.orderId === orderId)) {
      this.#deferred.splice(this.#deferred.indexOf(deferred), 1);
      if (typeof this.#makeRefund(this.#tx(orderId), deferred.key, deferred.amount, deferred.reason) !== "string") made++;
    }
    return made;
  }

  /** A refund recorded on the transaction, or why Midtrans cannot make it. */
  #makeRefund(tx: FakeTransaction, key: string, requested: number | undefined, reason: string) {
    const refundable = tx.payment_type === "credit_card" && ["settlement", "capture", "partial_refund"].includes(tx.transaction_status);
    if (!refundable) return "Merchant cannot modify the status of the transaction";
    const gross = Number.parseFloat(tx.gross_amount);
    const done = (tx.refunds ?? []).reduce((sum, r) => sum + Number.parseFloat(r.refund_amount), 0);
    const amount = requested ?? gross - done;
    if (!Number.isFinite(amount) || amount <= 0 || amount > gross - done) return "Refund amount is greater than the remaining amount";
    const made = {
      refund_chargeback_id: this.#nextChargebackId++,
      refund_key: key,
      refund_amount: amountText(amount),
      reason,
      created_at: jakarta(new Date()),
    };
    tx.refunds = [...(tx.refunds ?? []), made];
    tx.refund_amount = amountText(done + amount);
    tx.transaction_status = done + amount >= gross ? "refund" : "partial_refund";
    return made;
  }

  #charge(body: Record<string, unknown>, json: (status: number, body: unknown) => void) {
    const details = body.transaction_details as { order_id?: unknown; gross_amount?: unknown } | undefined;
    const orderId = details?.order_id;
    const gross = details?.gross_amount;
    if (
      typeof orderId !== "string" ||
      !/^[A-Za-z0-9\-_~.]{1,50}$/.test(orderId) ||
      typeof gross !== "number" ||
      !Number.isInteger(gross) ||
      gross < 1
    ) {
      return json(400, {
        status_code: "400",
        status_message: "One or more parameters in the payload is invalid.",
        validation_messages: ["transaction_details is invalid"],
      });
    }
    if (this.transactions.has(orderId)) {
      return json(406, {
        status_code: "406",
        status_message:
          "The request could not be completed due to a conflict with the current state of the target resource, please try again",
      });
    }
    const now = new Date();
    const expiry = body.custom_expiry as { expiry_duration?: number; unit?: string } | undefined;
    const minutes = expiry?.expiry_duration
      ? Number(expiry.expiry_duration) * ({ second: 1 / 60, minute: 1, hour: 60, day: 1440 }[expiry.unit ?? "minute"] ?? 1)
      : 24 * 60;
    const digits = String(++this.#counter).padStart(6, "0");
    const tx: FakeTransaction = {
      order_id: orderId,
      transaction_id: crypto.randomUUID(),
      gross_amount: amountText(gross),
      payment_type: body.payment_type === "echannel" ? "echannel" : "bank_transfer",
      transaction_status: "pending",
      fraud_status: "accept",
      transaction_time: jakarta(now),
      expiry_time: jakarta(new Date(now.getTime() + minutes * 60_000)),
    };
    if (tx.payment_type === "echannel") {
      tx.bill_key = `9${String(Date.now()).slice(-5)}${digits}`;
      tx.biller_code = "70012";
    } else {
      const bank = String((body.bank_transfer as { bank?: unknown } | undefined)?.bank ?? "");
      if (!["bni", "bri", "permata", "bca", "cimb"].includes(bank))
        return json(400, {
          status_code: "400",
          status_message: "One or more parameters in the payload is invalid.",
          validation_messages: ["bank_transfer.bank is invalid"],
        });
      tx.bank = bank;
      const number = `${{ bni: "9888", bri: "8578", permata: "8778", bca: "1234", cimb: "8493" }[bank]}${String(Date.now()).slice(-6)}${digits}`;
      if (bank === "permata") tx.permata_va_number = number;
      else tx.va_numbers = [{ bank, va_number: number }];
    }
    this.transactions.set(orderId, tx);
    const { bank: _bank, ...fields } = tx;
    json(201, {
      status_code: "201",
      status_message:
        tx.payment_type === "echannel" ? "OK, Mandiri Bill transaction is successful" : "Success, Bank Transfer transaction is created",
      merchant_id: "G000000000",
      currency: "IDR",
      ...fields,
    });
  }

  #snap(body: Record<string, unknown>, json: (status: number, body: unknown) => void) {
    const details = body.transaction_details as { order_id?: unknown; gross_amount?: unknown } | undefined;
    const orderId = details?.order_id;
    const gross = details?.gross_amount;
    if (typeof orderId !== "string" || typeof gross !== "number")
      return json(400, { error_messages: ["transaction_details.order_id is required"] });
    if ([...this.snaps.values()].some((s) => s.order_id === orderId) || this.transactions.has(orderId)) {
      return json(400, { error_messages: ["transaction_details.order_id sudah digunakan"] });
    }
    const card = body.credit_card as { installment?: { required?: boolean; terms?: Record<string, number[]> } } | undefined;
    const token = crypto.randomUUID();
    const callbacks = body.callbacks as { finish?: unknown } | undefined;
    this.snaps.set(token, {
      token,
      order_id: orderId,
      gross_amount: gross,
      finish: typeof callbacks?.finish === "string" ? callbacks.finish : null,
      terms: card?.installment?.terms ?? {},
      required: card?.installment?.required === true,
      enabled: Array.isArray(body.enabled_payments) ? (body.enabled_payments as string[]) : [],
    });
    json(201, { token, redirect_url: `${this.#url}/snap/v2/vtweb/${token}` });
  }

  /** Snap's page: GET shows the card instalment; POST .../pay captures it, notifies, and goes to the finish URL. */
  async #snapPage(token: string, paying: boolean, res: http.ServerResponse) {
    const snap = this.snaps.get(token);
    if (!snap) {
      res.writeHead(404, { "Content-Type": "text/plain" });
      return res.end("Snap token not found");
    }
    const term = Object.values(snap.terms)[0]?.[0] ?? 0;
    if (!paying) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(
        `<!doctype html><html lang="id"><head><meta charset="utf-8"><title>Midtrans Snap (fake)</title></head><body>` +
          `<h1>Midtrans (fake)</h1><p data-testid="snap-order">${snap.order_id}</p><p data-testid="snap-amount">Rp ${snap.gross_amount}</p>` +
          `<p data-testid="snap-installment">Cicilan ${Object.keys(snap.terms).join(",").toUpperCase()} ${term} bulan${snap.required ? " (wajib)" : ""}</p>` +
          `<form method="post" action="/snap/v2/vtweb/${token}/pay"><button type="submit">Bayar dengan Kartu</button></form></body></html>`,
      );
    }
    let tx = this.transactions.get(snap.order_id);
    if (!tx) {
      tx = {
        order_id: snap.order_id,
        transaction_id: crypto.randomUUID(),
        gross_amount: amountText(snap.gross_amount),
        payment_type: "credit_card",
        transaction_status: "pending",
        fraud_status: "accept",
        transaction_time: jakarta(new Date()),
        installment_term: term,
        bank: "bni",
      };
      this.transactions.set(snap.order_id, tx);
      this.pay(snap.order_id);
      if (this.notificationUrl) await this.notify(snap.order_id).catch(() => null);
    }
    const finish = snap.finish ? new URL(snap.finish) : null;
    if (!finish) {
      res.writeHead(200, { "Content-Type": "text/plain" });
      return res.end("paid");
    }
    finish.searchParams.set("order_id", tx.order_id);
    finish.searchParams.set("status_code", STATUS_CODE[tx.transaction_status]);
    finish.searchParams.set("transaction_status", tx.transaction_status);
    res.writeHead(302, { Location: finish.toString() });
    res.end();
  }
}

export async function startFakeMidtrans(options: FakeMidtransOptions): Promise<FakeMidtrans> {
  const fake = new FakeMidtrans(options);
  await fake.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  return fake;
}
