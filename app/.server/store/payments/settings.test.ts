import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { operatorAudit } from "../../db/schema";
import { MANUAL_TRANSFER_ACCOUNT } from "~/lib/payment-channels";
import { TENORS, VA_BADGE } from "~/lib/payment-pricing";
import { orders, payments } from "../../db/schema";
import { getOrderRewardSetting, saveOrderRewardSetting } from "../orders";
import { createVerifiedUser } from "../../testing/fixtures";
import { createBuyer, createStockedProduct, methodId, placeOrder } from "../../testing/payment-fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { addCompany, getHelpContacts, listAllCompanies, listCompanies, registerUser, saveHelpContacts, updateCompany } from "../people";
import { getPaymentDetail } from "./page";
import { listPaymentMethods, listTenorOptions } from "./methods";
import {
  getCashDiscount,
  saveCashDiscount,
  getTenorSettings,
  getTransferAccount,
  saveHowToTexts,
  saveMethodSettings,
  saveTenorSettings,
  saveTransferAccount,
  listMethodSettings,
} from "./settings";

// The store's settings (issue 27): seeded with the values the code had; an admin's change applies
// to payments opened afterwards; bad input is refused per field; every save is audited.

let db: Db;
let adminId: number;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
  adminId = (await createVerifiedUser(db)).id;
});

describe("the manual-transfer account", () => {
  it("starts as the built-in account; a new account shows on new payments only, an open payment keeps its own", async () => {
    expect(await getTransferAccount()).toEqual({
      bankName: MANUAL_TRANSFER_ACCOUNT.bankName,
      accountName: MANUAL_TRANSFER_ACCOUNT.bankAccountName,
      accountNumber: MANUAL_TRANSFER_ACCOUNT.bankAccountNumber,
    });
    const before = await createBuyer();
    const oldOrder = await placeOrder(before, await createStockedProduct(), "MANUAL-BNI");
    expect((await getPaymentDetail(oldOrder, before.id))!.manualInfoDetail).toMatchObject({
      bankAccountNumber: MANUAL_TRANSFER_ACCOUNT.bankAccountNumber,
    });

    expect(await saveTransferAccount(adminId, { bankName: "", accountName: "=cmd", accountNumber: "12ab" })).toEqual({
      ok: false,
      errors: {
        bankName: "Nama bank tidak boleh kosong.",
        accountName: "Nama Pemilik Rekening tidak valid.",
        accountNumber: "Nomor Rekening harus 6–20 angka.",
      },
    });
    expect(
      await saveTransferAccount(adminId, {
        bankName: "Bank Mandiri",
        accountName: "PT Koperasi Pegawai PLN",
        accountNumber: "123-456 7890",
      }),
    ).toEqual({ ok: true });

    const after = await createBuyer();
    const newOrder = await placeOrder(after, await createStockedProduct(), "MANUAL-BNI");
    const fresh = (await getPaymentDetail(newOrder, after.id))!;
    expect(fresh.manualInfoDetail).toEqual({
      bankName: "Bank Mandiri",
      bankImageUrl: "/images/payment/mandiri.svg",
      bankAccountName: "PT Koperasi Pegawai PLN",
      bankAccountNumber: "1234567890",
    });
    expect(fresh.vaNo).toBe("1234567890");
    expect(fresh.howTo[0]!.content).toContain("PT Koperasi Pegawai PLN");
    // The payment opened before the change still shows the account it showed.
    expect((await getPaymentDetail(oldOrder, before.id))!.manualInfoDetail).toMatchObject({
      bankName: MANUAL_TRANSFER_ACCOUNT.bankName,
      bankAccountNumber: MANUAL_TRANSFER_ACCOUNT.bankAccountNumber,
    });
    const audit = await db.select({ detail: operatorAudit.detail }).from(operatorAudit).where(eq(operatorAudit.operatorId, adminId));
    expect(audit.map((a) => a.detail)).toContain("rekening transfer: Bank Mandiri 1234567890 a.n. PT Koperasi Pegawai PLN");
  });
});

describe("methods, fees and tenors", () => {
  it("a method switched off leaves the list, a fee applies to new totals; never all off; bad fees refused", async () => {
    const methods = await listMethodSettings();
    const bri = await methodId("BRI-VA");
    const all = (override: Record<number, { active?: boolean; fee?: string }>) =>
      methods.map((m) => ({ id: m.id, active: override[m.id]?.active ?? m.active, fee: override[m.id]?.fee ?? String(m.fee) }));
    expect(await saveMethodSettings(adminId, all({ [bri]: { fee: "-5" } }))).toEqual({
      ok: false,
      errors: { [`fee-${bri}`]: "Biaya harus angka 0 sampai 1.000.000." },
    });
    expect(
      await saveMethodSettings(
        adminId,
        methods.map((m) => ({ id: m.id, active: false, fee: "0" })),
      ),
    ).toEqual({ ok: false, errors: { form: "Minimal satu metode pembayaran harus aktif." } });
    const bni = await methodId("BNI-VA");
    expect(await saveMethodSettings(adminId, all({ [bri]: { active: false }, [bni]: { fee: "6.500" } }))).toEqual({ ok: true });
    const listed = (await listPaymentMethods(1_000_000)).flatMap((g) => g.methods);
    expect(listed.map((m) => m.code)).not.toContain("BRI-VA");
    expect(listed.find((m) => m.code === "BNI-VA")).toMatchObject({ fee: 6_500 });
    await saveMethodSettings(adminId, all({}));
  });

  it("tenors as rows of months and interest: the instalment options follow; a wrong row is refused with its number", async () => {
    const rows = (...pairs: [string, string][]) => pairs.map(([tenor, interest]) => ({ tenor, interest }));
    expect(await getTenorSettings()).toEqual(TENORS);
    expect(await saveTenorSettings(adminId, rows(["3", "0"], ["6", "x"]))).toEqual({
      ok: false,
      errors: { tenors: "Baris 2: Bunga harus 0–100%, misalnya 2,5.", "interest-1": "Bunga harus 0–100%, misalnya 2,5." },
    });
    expect(await saveTenorSettings(adminId, rows(["3", "0"], ["61", "1"]))).toMatchObject({
      ok: false,
      errors: { tenors: "Baris 2: Tenor harus 1–60 bulan." },
    });
    expect(await saveTenorSettings(adminId, rows(["3", "0"], ["3", "1"]))).toMatchObject({
      ok: false,
      errors: { tenors: "Baris 2: Tenor 3 bulan sudah ada." },
    });
    expect(await saveTenorSettings(adminId, rows(["", " "], ["", ""]))).toEqual({ ok: false, errors: { tenors: "Minimal satu tenor." } });
    // '2,5' is two and a half, as in the discount's field above it; an empty row between is skipped.
    expect(await saveTenorSettings(adminId, rows(["24", "10"], ["", ""], ["6", "2,5"]))).toEqual({ ok: true });
    const options = await listTenorOptions(12_000_000, await methodId("BNI-INSTALLMENT"));
    expect(options!.map((o) => o.label)).toEqual(["6x Cicilan 2.5%", "24x Cicilan 10%"]);
    await saveTenorSettings(
      adminId,
      TENORS.map((t) => ({ tenor: String(t.tenor), interest: String(t.interestPercentage) })),
    );
  });

  it("how-to texts are sanitised, per channel, with {nomor} and {nama} filled in; empty keeps the built-in text", async () => {
    expect(
      await saveHowToTexts(adminId, {
        "BNI-VA|ATM": '<p onclick="x()">Bayar ke <b>{nomor}</b></p><script>alert(1)</script>',
        "NOPE|ATM": "x",
        "BNI-VA|Mobile Banking": "  ",
      }),
    ).toEqual({ ok: true });
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct(), "BNI-VA");
    const detail = (await getPaymentDetail(orderId, buyer.id))!;
    const atm = detail.howTo.find((h) => h.type === "ATM")!.content;
    expect(atm).toBe(`<p>Bayar ke <b>${detail.vaNo}</b></p>`);
    expect(detail.howTo.find((h) => h.type === "Mobile Banking")!.content).toContain("BNI Mobile Banking");
    await saveHowToTexts(adminId, {});
  });
});

describe("companies and the help contacts", () => {
  it("add, rename, hide: a hidden company is not offered and not accepted at registration", async () => {
    const name = `PT Baru ${randomUUID().slice(0, 6)}`;
    expect(await addCompany(adminId, `  ${name} `)).toEqual({ ok: true });
    expect(await addCompany(adminId, name.toUpperCase())).toEqual({ ok: false, errors: { name: "Perusahaan dengan nama ini sudah ada." } });
    expect(await addCompany(adminId, "")).toEqual({ ok: false, errors: { name: "Nama perusahaan tidak boleh kosong." } });
    const company = (await listAllCompanies()).find((c) => c.name === name)!;
    expect(await updateCompany(adminId, company.id, { name: `${name} Tbk`, hidden: true })).toEqual({ ok: true });
    expect((await listCompanies()).map((c) => c.id)).not.toContain(company.id);
    expect(
      await registerUser({
        fullname: "A",
        phoneNo: "081234567890",
        nip: "1",
        companyId: company.id,
        email: `x-${randomUUID().slice(0, 6)}@example.test`,
        password: "rahasia123",
      }),
    ).toEqual({ ok: false, field: "companyId", message: "Perusahaan tidak boleh kosong." });
    expect((await listAllCompanies()).find((c) => c.id === company.id)).toEqual({ id: company.id, name: `${name} Tbk`, hidden: true });
  });

  it("the help contacts start as ADMIN_PHONE; bad numbers refused per field", async () => {
    expect(await getHelpContacts()).toEqual({ phone: "+62 811-1000-123", whatsapp: "+62 811-1000-123" });
    expect(await saveHelpContacts(adminId, { phone: "abc", whatsapp: "" })).toEqual({
      ok: false,
      errors: {
        phone: "Nomor telepon harus 8–20 angka (boleh diawali +).",
        whatsapp: "Nomor WhatsApp harus 8–20 angka (boleh diawali +).",
      },
    });
    expect(await saveHelpContacts(adminId, { phone: "021-7251234", whatsapp: "+62 812 3456 7890" })).toEqual({ ok: true });
    expect(await getHelpContacts()).toEqual({ phone: "021-7251234", whatsapp: "+62 812 3456 7890" });
  });
});

describe("the business rules (issue 38)", () => {
  it("the VA cash discount: new payments get the admin's percentage and badge, an open payment keeps its own; off means none", async () => {
    expect(await getCashDiscount()).toEqual({ enabled: true, percent: 3 });
    const price = 10_000_000;
    const before = await createBuyer();
    const oldOrder = await placeOrder(before, await createStockedProduct({ price }), "BNI-VA");
    const oldDetail = (await getPaymentDetail(oldOrder, before.id))!;
    expect(oldDetail.breakdown).toMatchObject({ discount: 300_000, discountPercent: 3 });
    expect((await listPaymentMethods(price))[0]!.badge).toBe(VA_BADGE);

    expect(await saveCashDiscount(adminId, { enabled: true, percent: "abc" })).toEqual({
      ok: false,
      errors: { percent: "Persentase diskon harus angka 0 sampai 50 (misalnya 3 atau 2,5)." },
    });
    expect(await saveCashDiscount(adminId, { enabled: true, percent: "2,5" })).toEqual({ ok: true });
    expect((await listPaymentMethods(price))[0]!.badge).toBe("-2,5% Diskon Pembelian Tunai");
    const after = await createBuyer();
    const newOrder = await placeOrder(after, await createStockedProduct({ price }), "BNI-VA");
    const newDetail = (await getPaymentDetail(newOrder, after.id))!;
    expect(newDetail.breakdown).toMatchObject({ discount: 250_000, discountPercent: 2.5 });
    // The payment opened before keeps its 3% and its total.
    expect((await getPaymentDetail(oldOrder, before.id))!.breakdown).toEqual(oldDetail.breakdown);

    expect(await saveCashDiscount(adminId, { enabled: false, percent: "2,5" })).toEqual({ ok: true });
    expect((await listPaymentMethods(price))[0]!.badge).toBeNull();
    const off = await createBuyer();
    const offOrder = await placeOrder(off, await createStockedProduct({ price }), "BNI-VA");
    const [offPayment] = await db.select().from(payments).where(eq(payments.orderId, offOrder));
    expect(offPayment).toMatchObject({ discount: 0, discountPercent: null });

    const audit = await db.select({ detail: operatorAudit.detail }).from(operatorAudit).where(eq(operatorAudit.operatorId, adminId));
    expect(audit.map((a) => a.detail)).toEqual(expect.arrayContaining(["diskon tunai VA: 2,5%", "diskon tunai VA: nonaktif"]));
    await saveCashDiscount(adminId, { enabled: true, percent: "3" });
  });

  it("the reward rule is written on each new order; bad input refused per field", async () => {
    expect(await getOrderRewardSetting()).toEqual({ enabled: true, percent: 1, cap: 500_000 });
    expect(await saveOrderRewardSetting(adminId, { enabled: true, percent: "50", cap: "x" })).toEqual({
      ok: false,
      errors: {
        rewardPercent: "Persentase reward harus angka 0 sampai 20 (misalnya 1 atau 0,5).",
        rewardCap: "Batas reward harus angka rupiah 0 sampai 100.000.000.",
      },
    });
    const before = await createBuyer();
    const oldOrder = await placeOrder(before, await createStockedProduct(), "BNI-VA");
    expect(await saveOrderRewardSetting(adminId, { enabled: true, percent: "0,5", cap: "100.000" })).toEqual({ ok: true });
    const after = await createBuyer();
    const newOrder = await placeOrder(after, await createStockedProduct(), "BNI-VA");
    const rule = async (id: number) =>
      (await db.select({ percent: orders.rewardPercent, cap: orders.rewardCap }).from(orders).where(eq(orders.id, id)))[0];
    expect(await rule(oldOrder)).toEqual({ percent: 1, cap: 500_000 });
    expect(await rule(newOrder)).toEqual({ percent: 0.5, cap: 100_000 });
    expect(await saveOrderRewardSetting(adminId, { enabled: false, percent: "0,5", cap: "100000" })).toEqual({ ok: true });
    const none = await placeOrder(await createBuyer(), await createStockedProduct(), "BNI-VA");
    expect(await rule(none)).toEqual({ percent: null, cap: null });
    await saveOrderRewardSetting(adminId, { enabled: true, percent: "1", cap: "500000" });
  });

  it("the manual transfer's name, logo and how-to follow the account's bank", async () => {
    await saveTransferAccount(adminId, { bankName: "Bank Central Asia", accountName: "PT Toko Pegawai", accountNumber: "5550001112" });
    const manual = (await listPaymentMethods(1_000_000)).flatMap((g) => g.methods).find((m) => m.type === "bank_transfer")!;
    expect(manual).toMatchObject({ name: "Transfer Bank Central Asia (Manual)", imageUrl: "/images/payment/bank.svg" });
    await saveTransferAccount(adminId, { bankName: "Bank Mandiri", accountName: "PT Toko Pegawai", accountNumber: "5550001112" });
    const buyer = await createBuyer();
    const orderId = await placeOrder(buyer, await createStockedProduct(), "MANUAL-BNI");
    const detail = (await getPaymentDetail(orderId, buyer.id))!;
    expect(detail.method).toMatchObject({ name: "Transfer Bank Mandiri (Manual)", imageUrl: "/images/payment/mandiri.svg" });
    const mobile = detail.howTo.find((h) => h.type === "Mobile Banking")!.content;
    expect(mobile).toContain("Livin&#39; by Mandiri");
    expect(mobile).not.toContain("BNI");
  });
});
