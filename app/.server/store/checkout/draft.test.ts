import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { checkoutDrafts, type AddressInput } from "../../db/schema";
import { eq } from "drizzle-orm";
import { processImageUpload } from "../../images";
import {
  checkEmployeePromo,
  clearCheckoutDraft,
  getCheckoutDraft,
  getSavedAddress,
  saveDraftAddress,
  saveDraftValues,
  setDraftKtp,
  startCheckout,
} from "./draft";
import { createProduct, createVerifiedUser, EMPLOYEE_PROMO, ICP_PROMO, INCENTIVE_PROMO, realAddress } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { listDistricts, listProvinces, listRegencies, listVillages, resolveAddress } from "./locations";
import { getOwnedUpload, saveUpload, uploadUrl } from "../orders";

// The checkout draft, the location lists and the upload store. Runs on this file's PGlite, or with
// DATABASE_URL on a database of its own on that server (it creates products, which would move the
// catalogue tests' listings).

let address: AddressInput;
ownDatabaseForThisFile();
beforeAll(async () => {
  address = await realAddress(await getDb());
});

describe("area lists", () => {
  it("lists the 38 provinces by name, and each level only the children of its parent", async () => {
    const provinces = await listProvinces();
    expect(provinces).toHaveLength(38);
    expect(provinces.map((p) => p.name)).toEqual([...provinces.map((p) => p.name)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const regencies = await listRegencies("32");
    expect(regencies.length).toBeGreaterThan(20);
    expect(regencies.every((r) => r.id.startsWith("32."))).toBe(true);
    expect(regencies.map((r) => r.name)).toContain("Kota Bandung");
    const districts = await listDistricts("32.73");
    expect(districts.every((d) => d.id.startsWith("32.73."))).toBe(true);
    const villages = await listVillages(districts[0]!.id);
    expect(villages.length).toBeGreaterThan(0);
    expect(villages.every((v) => v.id.startsWith(`${districts[0]!.id}.`))).toBe(true);
  });

  it("searches case-insensitively within the level, only from 3 characters", async () => {
    const found = await listRegencies("32", "bAnDuNg");
    expect(found.map((r) => r.name).sort()).toEqual(["Kabupaten Bandung", "Kabupaten Bandung Barat", "Kota Bandung"]);
    expect(await listRegencies("32", "ba")).toEqual(await listRegencies("32"));
    expect(await listProvinces("%")).toHaveLength(38); // too short: no filter, and % is never a wildcard
    expect(await listProvinces("a_a")).toEqual([]);
  });

  it("answers an empty list for a parent that does not exist or is not a code", async () => {
    expect(await listRegencies("99")).toEqual([]);
    expect(await listDistricts("'; drop table villages; --")).toEqual([]);
    expect(await listVillages("")).toEqual([]);
  });
});

describe("resolveAddress", () => {
  it("accepts a real chain and looks the names up", async () => {
    const result = await resolveAddress(address);
    expect(result).toMatchObject({ ok: true, address: { ...address, provinsi: "Jawa Barat", kota: "Kota Bandung" } });
    if (result.ok) expect(result.address.kecamatan && result.address.kelurahan).toBeTruthy();
  });

  it("refuses forged combinations, naming the first level that does not fit", async () => {
    const [otherDistrict] = (await listDistricts("32.73")).filter((d) => d.id !== address.kecamatanId);
    expect(await resolveAddress({ ...address, provinsiId: "31" })).toMatchObject({ ok: false, field: "kotaId" });
    // Kabupaten Bandung is in Jawa Barat, but the district is not in it.
    expect(await resolveAddress({ ...address, kotaId: "32.04" })).toMatchObject({ ok: false, field: "kecamatanId" });
    expect(await resolveAddress({ ...address, kecamatanId: otherDistrict!.id })).toMatchObject({
      ok: false,
      field: "kelurahanId",
      message: "Kelurahan tidak berada di kecamatan yang dipilih.",
    });
    expect(await resolveAddress({ ...address, provinsiId: "99" })).toMatchObject({
      ok: false,
      field: "provinsiId",
      message: "Provinsi tidak ditemukan.",
    });
    expect(await resolveAddress({ ...address, kelurahanId: "32.73.01.9999" })).toMatchObject({ ok: false, field: "kelurahanId" });
  });

  it("requires every field and a 5-digit postal code, also for input that is not text at all", async () => {
    expect(await resolveAddress({ ...address, fullAddress: "  " })).toMatchObject({ ok: false, field: "fullAddress" });
    expect(await resolveAddress({ ...address, kodePos: "4011" })).toEqual({
      ok: false,
      field: "kodePos",
      message: "Kode pos harus 5 digit angka.",
    });
    expect(await resolveAddress({ ...address, kodePos: "40a11" })).toMatchObject({ ok: false, field: "kodePos" });
    expect(await resolveAddress({ ...address, kotaId: "" })).toEqual({
      ok: false,
      field: "kotaId",
      message: "Kota/Kabupaten tidak boleh kosong.",
    });
    expect(await resolveAddress({ ...address, kecamatanId: ["32.73.01"] } as unknown as AddressInput)).toMatchObject({
      ok: false,
      field: "kecamatanId",
    });
    expect(await resolveAddress({} as AddressInput)).toMatchObject({ ok: false, field: "fullAddress" });
  });
});

/** A KTP photo as the upload check accepts it. */
async function ktpPhoto() {
  const png = await sharp({ create: { width: 1000, height: 630, channels: 3, background: { r: 120, g: 160, b: 220 } } })
    .png()
    .toBuffer();
  const result = await processImageUpload(new File([new Uint8Array(png)], "ktp.png", { type: "image/png" }));
  if (!result.ok) throw new Error(result.message);
  return result.file;
}

describe("upload store", () => {
  it("gives a file back only to its owner; anyone else and any made-up id get nothing", async () => {
    const db = await getDb();
    const [owner, stranger] = [await createVerifiedUser(db), await createVerifiedUser(db)];
    const file = await ktpPhoto();
    const id = await saveUpload(owner.id, "ktp", file);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(uploadUrl(id)).toBe(`/uploads/${id}`);
    const mine = await getOwnedUpload(id, owner.id);
    expect(mine?.contentType).toBe("image/jpeg");
    expect(mine?.size).toBe(file.bytes.length);
    expect(Buffer.from(mine!.bytes).equals(Buffer.from(file.bytes))).toBe(true);
    expect(await getOwnedUpload(id, stranger.id)).toBeNull();
    expect(await getOwnedUpload("../../etc/passwd", owner.id)).toBeNull();
    expect(await getOwnedUpload(`${id.slice(0, 21)}x`, owner.id)).toBeNull();
  });
});

describe("checkout draft", () => {
  it("refuses an unverified account, an unknown, unorderable or priceless product, and one out of stock", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db);
    const unverified = await createVerifiedUser(db, { verified: false });
    const product = await createProduct(db);
    expect(await startCheckout({ id: unverified.id, verified: false }, product)).toMatchObject({ ok: false });
    expect(await startCheckout({ id: user.id, verified: true }, 2_000_000_000)).toEqual({ ok: false, message: "Produk tidak ditemukan." });
    expect(await startCheckout({ id: user.id, verified: true }, await createProduct(db, { orderable: false }))).toEqual({
      ok: false,
      message: "Produk ini belum dapat dipesan.",
    });
    expect(await startCheckout({ id: user.id, verified: true }, await createProduct(db, { price: null }))).toEqual({
      ok: false,
      message: "Produk ini belum dapat dipesan.",
    });
    expect(await startCheckout({ id: user.id, verified: true }, await createProduct(db, { stock: 0 }))).toEqual({
      ok: false,
      message: "Stok produk habis.",
    });
    expect(await getCheckoutDraft(user.id)).toBeNull();
    expect(await getCheckoutDraft(unverified.id)).toBeNull();
  });

  it("starts prefilled from the profile (phone as digits) with the product, its pricing and promos", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db, { phoneNo: "0812-3456 7890" });
    const product = await createProduct(db, {
      price: 28_500_000,
      discount: 5,
      discountType: "%",
      stock: 7,
      promos: [EMPLOYEE_PROMO, ICP_PROMO, INCENTIVE_PROMO],
    });
    expect(await startCheckout({ id: user.id, verified: true }, product)).toEqual({ ok: true });
    const draft = await getCheckoutDraft(user.id);
    expect(draft?.values).toEqual({
      buyerName: user.fullname,
      buyerPhoneNumber: "081234567890",
      buyerEmail: user.email,
      buyerNip: user.nip,
    });
    expect(draft?.product).toMatchObject({
      id: product,
      stock: 7,
      hasIncentive: true,
      pricing: { price: 28_500_000, discount: 5, discountType: "%" },
    });
    expect(draft?.product.pricing.promos.map((p) => p.kind).sort()).toEqual(["employee", "incentive", "ordinary"]);
    expect([draft?.ktp, draft?.address, draft?.paymentMethodId, draft?.tenor]).toEqual([null, null, null, null]);
  });

  it("keeps what was typed (replacing the values, clipped), restores it later, and never shows it to another user", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db);
    const other = await createVerifiedUser(db);
    await startCheckout({ id: user.id, verified: true }, await createProduct(db));
    await saveDraftValues(user.id, {
      buyerName: "Siti",
      buyerNik: "3273010101010001",
      note: "x".repeat(900),
      insentif: true,
      buyerDadName: "Ahmad",
    });
    await saveDraftValues(user.id, {
      buyerName: "Siti Rahma",
      buyerNik: "3273010101010001",
      note: "Kirim pagi",
      domisiliValidation: true,
      extra: "no",
    } as never);
    // Issue 35: the draft keeps the NIK sealed; the form gets it back in clear.
    const [stored] = await db.select({ values: checkoutDrafts.values }).from(checkoutDrafts).where(eq(checkoutDrafts.userId, user.id));
    expect(JSON.stringify(stored!.values)).not.toContain("3273010101010001");
    const restored = await getCheckoutDraft(user.id);
    // The second save replaced the first: the father's name and the incentive tick are gone.
    expect(restored?.values).toEqual({
      buyerName: "Siti Rahma",
      buyerNik: "3273010101010001",
      note: "Kirim pagi",
      domisiliValidation: true,
    });
    await saveDraftValues(user.id, { note: "y".repeat(900) });
    expect((await getCheckoutDraft(user.id))?.values.note).toHaveLength(500);
    expect(await getCheckoutDraft(other.id)).toBeNull();
  });

  it("saves the address to the draft and for next time; a new 'Beli Sekarang' replaces the draft but keeps that address", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db);
    const address = await realAddress(db);
    const first = await createProduct(db);
    const second = await createProduct(db);
    await startCheckout({ id: user.id, verified: true }, first);
    await saveDraftValues(user.id, { buyerNik: "3273010101010001" });
    await setDraftKtp(user.id, await saveUpload(user.id, "ktp", await ktpPhoto()));
    await saveDraftAddress(user.id, address);
    const draft = await getCheckoutDraft(user.id);
    expect(draft?.address).toMatchObject({ ...address, provinsi: "Jawa Barat", kota: "Kota Bandung" });
    expect(draft?.ktp?.url).toBe(`/uploads/${draft?.ktp?.id}`);
    expect(await getSavedAddress(user.id)).toEqual(address);

    await startCheckout({ id: user.id, verified: true }, second);
    const replaced = await getCheckoutDraft(user.id);
    expect(replaced?.product.id).toBe(second);
    expect(replaced?.values.buyerNik).toBeUndefined();
    expect(replaced?.ktp).toBeNull();
    expect(replaced?.address).toMatchObject(address);

    await clearCheckoutDraft(user.id);
    expect(await getCheckoutDraft(user.id)).toBeNull();
    expect(await getSavedAddress(user.id)).toEqual(address);
  });

  it("takes only the user's own upload as the KTP photo", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db);
    const other = await createVerifiedUser(db);
    await startCheckout({ id: user.id, verified: true }, await createProduct(db));
    await setDraftKtp(user.id, await saveUpload(other.id, "ktp", await ktpPhoto()));
    expect((await getCheckoutDraft(user.id))?.ktp).toBeNull();
  });

  it("checkEmployeePromo: the 1,000,000 promo only for the account's own NIP and a product that has it", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db);
    const withPromo = await createProduct(db, { promos: [EMPLOYEE_PROMO, ICP_PROMO] });
    const withoutPromo = await createProduct(db, { promos: [ICP_PROMO] });
    expect(await checkEmployeePromo(user.id, withPromo, user.nip)).toMatchObject({
      discount: 1_000_000,
      discountType: "v",
      kind: "employee",
      title: EMPLOYEE_PROMO.title,
    });
    expect(await checkEmployeePromo(user.id, withPromo, ` ${user.nip} `)).not.toBeNull();
    expect(await checkEmployeePromo(user.id, withPromo, "1234567890")).toBeNull();
    expect(await checkEmployeePromo(user.id, withPromo, "")).toBeNull();
    expect(await checkEmployeePromo(user.id, withoutPromo, user.nip)).toBeNull();
  });
});
