import { describe, expect, it } from "vitest";
import { canCancel, listAction, orderActions, payAction } from "./order-actions";
import {
  DATE_FROM_REQUIRED,
  DATE_ORDER,
  DATE_OUT_OF_RANGE,
  DATE_TO_REQUIRED,
  readTransactionFilters,
  transactionHref,
} from "./transaction-filters";

const STATUSES = [1, 2, 100, 200, 300, 301, 302, 400, 500];
const TODAY = "2026-11-23";
const read = (query: string) => readTransactionFilters(new URLSearchParams(query), STATUSES, TODAY);

describe("transaction date filter (spec §5)", () => {
  it("filters nothing when the date form was never sent", () => {
    expect(read("")).toMatchObject({ filters: {}, dateError: null });
  });

  it("requires the start date, also when only the end is given", () => {
    expect(read("dateFrom=&dateTo=")).toMatchObject({ filters: {}, dateError: DATE_FROM_REQUIRED });
    expect(read("dateTo=2026-11-01")).toMatchObject({ filters: {}, dateError: DATE_FROM_REQUIRED });
    expect(read("dateFrom=kemarin&dateTo=2026-11-01").dateError).toBe(DATE_FROM_REQUIRED);
  });

  it("requires the end date once a start is set", () => {
    expect(read("dateFrom=2026-11-01&dateTo=")).toMatchObject({ filters: {}, dateError: DATE_TO_REQUIRED, dateFromInput: "2026-11-01" });
    expect(read("dateFrom=2026-11-01&dateTo=2026-02-30").dateError).toBe(DATE_TO_REQUIRED);
  });

  it("refuses a start after the end with the spec's words", () => {
    expect(read("dateFrom=2026-11-10&dateTo=2026-11-01")).toMatchObject({ filters: {}, dateError: DATE_ORDER });
    expect(DATE_ORDER).toBe("Tanggal akhir tidak boleh lebih dari tanggal awal.");
  });

  it("keeps days between 1980 and today only", () => {
    expect(read("dateFrom=1979-12-31&dateTo=2026-11-01").dateError).toBe(DATE_OUT_OF_RANGE);
    expect(read("dateFrom=2026-11-01&dateTo=2026-11-24").dateError).toBe(DATE_OUT_OF_RANGE);
    expect(read("dateFrom=1980-01-01&dateTo=2026-11-23")).toMatchObject({
      filters: { dateFrom: "1980-01-01", dateTo: "2026-11-23" },
      dateError: null,
    });
  });

  it("accepts a single day and keeps a known status alongside", () => {
    expect(read("statusId=400&dateFrom=2026-11-05&dateTo=2026-11-05")).toMatchObject({
      filters: { statusId: 400, dateFrom: "2026-11-05", dateTo: "2026-11-05" },
      dateError: null,
    });
  });

  it("drops unknown or hostile status values", () => {
    expect(read("statusId=999").filters).toEqual({});
    expect(read("statusId=1%20or%201=1").filters).toEqual({});
    expect(read("statusId=-1").filters).toEqual({});
  });

  it("builds the address of a filter at page 0", () => {
    expect(transactionHref({})).toBe("/transaction");
    expect(transactionHref({ statusId: 200, dateFrom: "2026-11-01", dateTo: "2026-11-02" })).toBe(
      "/transaction?statusId=200&dateFrom=2026-11-01&dateTo=2026-11-02",
    );
    expect(transactionHref({ statusId: 1 }, { sheet: "status" })).toBe("/transaction?statusId=1&sheet=status");
  });
});

describe("actions by status (spec §4, DESIGN §6)", () => {
  const order = (statusId: number, paymentMethodId: number | null = null, redirectUrl: string | null = null) => ({
    id: 7,
    statusId,
    paymentMethodId,
    redirectUrl,
  });

  it("offers cancel in 100, 200, 301, 302 only", () => {
    expect(STATUSES.filter(canCancel)).toEqual([100, 200, 301, 302]);
  });

  it("offers the arrival confirmation only in 400", () => {
    expect(STATUSES.filter((s) => orderActions(order(s)).confirm)).toEqual([400]);
  });

  it("picks the payment button of a 200 order by its method and gateway page", () => {
    expect(payAction(order(200))).toEqual({ label: "Pilih Metode Pembayaran", href: "/paymentmethod?orderId=7", external: false });
    expect(payAction(order(200, 3))).toEqual({ label: "Lihat Cara Bayar", href: "/payment/7", external: false });
    expect(payAction(order(200, 3, "https://gateway.test/pay/abc"))).toEqual({
      label: "Lanjutkan Pembayaran",
      href: "https://gateway.test/pay/abc",
      external: true,
    });
    // A card instalment waits in 301 while its gateway page (Midtrans Snap) is open.
    expect(payAction(order(301, 5, "https://gateway.test/snap/t"))).toEqual({
      label: "Lanjutkan Pembayaran",
      href: "https://gateway.test/snap/t",
      external: true,
    });
    expect(payAction(order(301, 5))).toBeNull();
    expect(payAction(order(301, 5, "javascript:alert(1)"))).toBeNull();
    for (const s of STATUSES.filter((s) => s !== 200 && s !== 301)) expect(payAction(order(s, 3, "https://gateway.test/x"))).toBeNull();
  });

  it("gives each card one button: pay where a method exists, else 'Lihat Detail'", () => {
    expect(listAction(order(200)).label).toBe("Lihat Detail");
    expect(listAction(order(200, 3)).label).toBe("Lihat Cara Bayar");
    expect(listAction(order(200, 3, "https://gateway.test/p")).label).toBe("Lanjutkan Pembayaran");
    expect(listAction(order(400, 3))).toEqual({ label: "Lihat Detail", href: "/transaction-detail/7", external: false });
  });
});
