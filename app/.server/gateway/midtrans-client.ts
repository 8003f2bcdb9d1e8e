import type { MidtransSettings } from "../env";

// A small typed client for the four Midtrans calls the store makes (decision 0021: the official
// midtrans-client keeps its base URLs in class-wide constants, so tests could point it at a fake
// only by changing them for the whole process). Over fetch, with a timeout; the server key goes
// only into the Authorization header, and no error message or log line carries it.

/** The fields of a Midtrans transaction the store reads (charge, status and expire answers, notifications). */
export type MidtransTransaction = {
  status_code: string;
  status_message?: string;
  transaction_id?: string;
  order_id?: string;
  /** A decimal string, "24145.00". */
  gross_amount?: string;
  payment_type?: string;
  transaction_time?: string;
  transaction_status?: string;
  fraud_status?: string;
  settlement_time?: string;
  expiry_time?: string;
  va_numbers?: { bank: string; va_number: string }[];
  permata_va_number?: string;
  bill_key?: string;
  biller_code?: string;
};

export type SnapTransaction = { token: string; redirect_url: string };

/** A refusal or failure of Midtrans. `httpStatus` null: no answer at all (network, timeout). */
export class MidtransError extends Error {
  readonly httpStatus: number | null;
  readonly statusCode: string | null;
  constructor(message: string, httpStatus: number | null, statusCode: string | null = null) {
    super(message);
    this.name = "MidtransError";
    this.httpStatus = httpStatus;
    this.statusCode = statusCode;
  }
  /** Midtrans answered and refused: nothing was created there. */
  get refused(): boolean {
    const code = Number(this.statusCode ?? this.httpStatus ?? 0);
    return code >= 400 && code < 500;
  }
}

const TIMEOUT_MS = 10_000;

export class MidtransClient {
  readonly #settings: MidtransSettings;
  constructor(settings: MidtransSettings) {
    this.#settings = settings;
  }

  /** Core API charge (bank_transfer, echannel): POST /v2/charge. */
  charge(body: Record<string, unknown>): Promise<MidtransTransaction> {
    return this.#core("POST", "/v2/charge", body);
  }

  /** GET /v2/{order_id}/status; null when Midtrans has no such transaction (status_code "404"). */
  async status(orderId: string): Promise<MidtransTransaction | null> {
    try {
      return await this.#core("GET", `/v2/${encodeURIComponent(orderId)}/status`);
    } catch (error) {
      if (error instanceof MidtransError && (error.statusCode === "404" || (error.statusCode === null && error.httpStatus === 404)))
        return null;
      throw error;
    }
  }

  /** POST /v2/{order_id}/expire: a pending transaction stops being payable. */
  expire(orderId: string): Promise<MidtransTransaction> {
    return this.#core("POST", `/v2/${encodeURIComponent(orderId)}/expire`);
  }

  /**
   * POST /v2/{order_id}/refund (card payments): `refund_key` names the refund, so the same request
   * again is the same refund at Midtrans, never a second one.
   */
  refund(orderId: string, body: { refund_key: string; amount: number; reason: string }): Promise<MidtransTransaction> {
    return this.#core("POST", `/v2/${encodeURIComponent(orderId)}/refund`, body);
  }

  /** Snap: POST /snap/v1/transactions → a token and the payment page's redirect_url. */
  async snap(body: Record<string, unknown>): Promise<SnapTransaction> {
    const { httpStatus, json } = await this.#send("POST", `${this.#settings.snapUrl}/snap/v1/transactions`, body);
    const answer = (json ?? {}) as Partial<SnapTransaction> & { error_messages?: unknown };
    if (httpStatus >= 200 && httpStatus < 300 && typeof answer.token === "string" && typeof answer.redirect_url === "string") {
      return { token: answer.token, redirect_url: answer.redirect_url };
    }
    const messages = Array.isArray(answer.error_messages) ? answer.error_messages.filter((m) => typeof m === "string").join("; ") : "";
    throw new MidtransError(
      `Snap refused the transaction (HTTP ${httpStatus})${messages ? `: ${messages.slice(0, 300)}` : ""}`,
      httpStatus,
      String(httpStatus),
    );
  }

  async #core(method: "GET" | "POST", path: string, body?: Record<string, unknown>): Promise<MidtransTransaction> {
    const { httpStatus, json } = await this.#send(method, `${this.#settings.apiUrl}${path}`, body);
    const answer = json as MidtransTransaction | null;
    if (!answer || typeof answer.status_code !== "string")
      throw new MidtransError(`Midtrans ${method} ${redact(path)}: HTTP ${httpStatus}, not a Midtrans answer`, httpStatus);
    // Midtrans puts its own code in the body; 2xx there (200 settled, 201 pending, 407 expired are
    // all answers about a transaction) — the codes that mean "no" are 4xx/5xx other than 407.
    const code = Number(answer.status_code);
    if (code >= 400 && code !== 407) {
      throw new MidtransError(
        `Midtrans ${method} ${redact(path)}: ${answer.status_code} ${(answer.status_message ?? "").slice(0, 200)}`,
        httpStatus,
        answer.status_code,
      );
    }
    return answer;
  }

  async #send(method: "GET" | "POST", url: string, body?: Record<string, unknown>): Promise<{ httpStatus: number; json: unknown }> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          Accept: "application/json",
          "Content-Type": "application/json",
          Authorization: `Basic ${Buffer.from(`${this.#settings.serverKey}:`).toString("base64")}`,
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const reason = error instanceof Error ? (error.name === "TimeoutError" ? "timed out" : error.message) : "failed";
      throw new MidtransError(`Midtrans ${method} ${redact(new URL(url).pathname)}: ${reason}`, null);
    }
    const json = await response.json().catch(() => null);
    return { httpStatus: response.status, json };
  }
}

/** Paths carry only order ids, never the key; kept short for log lines. */
function redact(path: string): string {
  return path.slice(0, 120);
}

/** "24145.00" → 24145; anything that is not a whole rupiah → NaN (it then never equals a total). */
export function wholeRupiah(grossAmount: unknown): number {
  if (typeof grossAmount !== "string" || !/^\d{1,15}(\.0{1,2})?$/.test(grossAmount)) return Number.NaN;
  return Number(grossAmount.split(".")[0]);
}

/** Midtrans's times are Jakarta time without a zone ("2026-11-25 14:03:11"). */
export function jakartaTime(value: unknown): Date | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)) return null;
  const date = new Date(`${value.replace(" ", "T")}+07:00`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A Date as Midtrans wants order_time / start_time: "2026-11-25 14:03:11 +0700". */
export function midtransTime(date: Date): string {
  const wib = new Date(date.getTime() + 7 * 60 * 60 * 1000).toISOString();
  return `${wib.slice(0, 10)} ${wib.slice(11, 19)} +0700`;
}
