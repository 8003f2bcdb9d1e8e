import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { checkoutDrafts, operatorAudit, orderEvents, orders, personalDataAccess, storeSettings, uploads } from "../../db/schema";
import { resetEnvForTests } from "../../env";
import { DataDecryptionError, decryptText, encryptText, resetDataKeyringForTests } from "../../data-crypto";
import { backupDatabase, findPgTool } from "../../ops/backup";
import { createProduct, createVerifiedUser, randomNik, submission } from "../../testing/fixtures";
import { createOrderInStatus } from "../../testing/order-fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { checkOrderRules, getCheckoutDraft, NIK_ALREADY_USED, saveDraftValues, startCheckout } from "../checkout";
import { getOwnedOrderDetail, getOwnedUpload, saveUpload, transitionOrder } from "../orders";
import { getOrderForOps, searchOrders } from "../back-office";
import {
  bindNiksToTheirRows,
  deleteExpiredKtpPhotos,
  exportPersonalDataAccessCsv,
  getKtpRetentionDays,
  listPersonalDataAccess,
  maskNik,
  nikContext,
  NIK_BOUND_TO_ROWS,
  nikHashOf,
  openOrderKtp,
  openOrderNik,
  readNik,
  rotatePersonalDataKey,
  rowsNotUnderCurrentKey,
  saveKtpRetentionDays,
  sealPersonalData,
} from ".";

// Issue 35: the NIK and KTP photos sealed at rest, compared by keyed hash, opened on record, deleted
// after their retention, and re-sealed under a new key while the store runs.

ownDatabaseForThisFile();
let db: Db;
beforeAll(async () => {
  db = await getDb();
});

async function orderRow(orderId: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text;
}

describe("masking", () => {
  it("shows the first and last four digits of a 16-digit NIK", () => {
    expect(maskNik("3171012345670001")).toBe("3171********0001");
    expect(maskNik("1234")).toBe("****");
  });
});

describe("the same-NIK rules on the keyed hash", () => {
  it("refuses a second live incentive for one NIK, and the search finds orders by NIK, with no NIK stored in clear", async () => {
    const first = await createOrderInStatus(db, 100);
    const row = await orderRow(first.orderId);
    const nik = readNik(row.buyerNik, { orderId: row.id });
    expect(nik).toMatch(/^\d{16}$/);
    expect(row.buyerNik).not.toContain(nik);
    expect(row.buyerNikHash).toBe(await nikHashOf(db, nik));
    expect(row.buyerNikHash).not.toContain(nik);

    const other = await createVerifiedUser(db);
    const again = submission(other, { buyerNik: nik, insentif: true, buyerDadName: "Budi" });
    expect(await checkOrderRules(other.id, again)).toEqual(expect.objectContaining({ ok: false }));
    const opener = { operatorId: other.id, clientAddress: "203.0.113.9" };
    expect((await searchOrders({ nik }, 1, opener)).items.map((o) => o.id)).toEqual([first.orderId]);
    expect((await searchOrders({ nik: randomNik() }, 1, opener)).items).toEqual([]);
    expect(NIK_ALREADY_USED).toBe("NIK sudah digunakan untuk pengajuan insentif lain.");
  });

  it("masks the NIK on the buyer's detail and the operator's order", async () => {
    const made = await createOrderInStatus(db, 100);
    const nik = readNik((await orderRow(made.orderId)).buyerNik, { orderId: made.orderId });
    expect((await getOwnedOrderDetail(made.orderId, made.user.id))!.buyerNik).toBe(maskNik(nik));
    expect((await getOrderForOps(made.orderId))!.buyer.nik).toBe(maskNik(nik));
  });
});

describe("the access log", () => {
  it("writes one row per opening of a NIK or KTP photo, listed and exported with the operator, buyer and address", async () => {
    const made = await createOrderInStatus(db, 100);
    const operator = await createVerifiedUser(db);
    const opener = { operatorId: operator.id, clientAddress: "203.0.113.7" };
    const nik = await openOrderNik(opener, made.orderId);
    expect(nik).toBe(readNik((await orderRow(made.orderId)).buyerNik, { orderId: made.orderId }));
    const photo = await openOrderKtp(opener, made.orderId);
    expect(Buffer.from(photo!.bytes)).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    expect(await openOrderNik(opener, 2_147_483_647)).toBeNull();

    const rows = await db.select().from(personalDataAccess).where(eq(personalDataAccess.orderId, made.orderId));
    expect(rows.map((r) => [r.operatorId, r.buyerId, r.item, r.clientAddress])).toEqual([
      [operator.id, made.user.id, "nik", "203.0.113.7"],
      [operator.id, made.user.id, "ktp", "203.0.113.7"],
    ]);

    const byOperator = await listPersonalDataAccess({ operator: operator.email });
    expect(byOperator.entries.map((e) => e.item)).toEqual(["ktp", "nik"]);
    expect(byOperator.entries[0]).toMatchObject({ buyerEmail: made.user.email, operatorEmail: operator.email, orderId: made.orderId });
    expect((await listPersonalDataAccess({ buyer: made.user.email })).entries).toHaveLength(2);
    expect((await listPersonalDataAccess({ buyer: "nobody-like-this@example.invalid" })).entries).toEqual([]);

    const csv = await readAll(exportPersonalDataAccessCsv({ operator: operator.email }));
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe("Waktu,Operator,Pembeli,E-mail Pembeli,Invoice,Data,Alamat IP");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain("Foto KTP");
    expect(lines[2]).toContain("NIK lengkap");
    expect(csv).not.toContain(nik!);
  });
});

describe("retention of KTP photos", () => {
  async function decidedOrder(daysAgo: number, to: 1 | 2 | 200) {
    const made = await createOrderInStatus(db, 100);
    const moved = await transitionOrder(made.orderId, 100, to, "system", "test");
    if (!moved.ok) throw new Error(moved.message);
    // Time travel: the decision happened `daysAgo` days ago.
    await db
      .update(orderEvents)
      .set({ createdAt: new Date(Date.now() - daysAgo * 86_400_000) })
      .where(sql`${orderEvents.orderId} = ${made.orderId} and ${orderEvents.fromStatus} = 100`);
    const row = await orderRow(made.orderId);
    return { ...made, uploadId: row.ktpUploadId! };
  }
  const uploadRow = async (id: string) => (await db.select().from(uploads).where(eq(uploads.id, id)))[0]!;

  it("deletes the bytes (keeping the row) once the order is closed and the days have passed, and the setting changes the days", async () => {
    expect(await getKtpRetentionDays()).toBe(90);
    const old = await decidedOrder(91, 2);
    const recent = await decidedOrder(30, 2);
    const stillOpen = await decidedOrder(200, 200);

    await deleteExpiredKtpPhotos();
    const gone = await uploadRow(old.uploadId);
    expect(gone.deletedAt).not.toBeNull();
    expect(gone.bytes.byteLength).toBe(0);
    expect(await getOwnedUpload(old.uploadId, old.user.id)).toBeNull();
    expect(await getOwnedOrderDetail(old.orderId, old.user.id)).toMatchObject({ ktpUrl: null, ktpDeleted: true });
    expect((await getOrderForOps(old.orderId))!.ktp.state).toBe("deleted");
    expect((await uploadRow(recent.uploadId)).deletedAt).toBeNull();
    expect((await uploadRow(stillOpen.uploadId)).deletedAt).toBeNull();

    const admin = await createVerifiedUser(db);
    expect(await saveKtpRetentionDays(admin.id, "0")).toEqual({
      ok: false,
      errors: { retentionDays: expect.stringMatching(/1–3650 hari/) },
    });
    expect(await saveKtpRetentionDays(admin.id, "abc")).toMatchObject({ ok: false });
    expect(await saveKtpRetentionDays(admin.id, "14")).toEqual({ ok: true });
    expect(await getKtpRetentionDays()).toBe(14);
    const [audit] = await db.select().from(operatorAudit).where(eq(operatorAudit.operatorId, admin.id));
    expect(audit).toMatchObject({ action: "settings", detail: "retensi foto KTP: 14 hari" });

    await deleteExpiredKtpPhotos();
    expect((await uploadRow(recent.uploadId)).deletedAt).not.toBeNull();
    expect((await uploadRow(stillOpen.uploadId)).deletedAt).toBeNull();
    await saveKtpRetentionDays(admin.id, "90");
  });
});

describe("rotation and the files at rest", () => {
  it("re-seals every NIK, photo and store key under a new first key; the old key may then go", async () => {
    const made = await createOrderInStatus(db, 100);
    const row = await orderRow(made.orderId);
    const nik = readNik(row.buyerNik, { orderId: row.id });
    // A NIK still sealed under the constant 'nik' (before issue 45 item 13): rotation binds it to its row.
    const legacy = await createOrderInStatus(db, 100);
    const legacyNik = readNik((await orderRow(legacy.orderId)).buyerNik, { orderId: legacy.orderId });
    await db
      .update(orders)
      .set({ buyerNik: encryptText(legacyNik, "nik") })
      .where(eq(orders.id, legacy.orderId));
    const oldKey = process.env.DATA_ENCRYPTION_KEY!;
    const newKey = crypto.randomBytes(32).toString("base64");
    const useKeys = (value: string) => {
      process.env.DATA_ENCRYPTION_KEY = value;
      resetEnvForTests();
      resetDataKeyringForTests();
    };
    try {
      useKeys(`${newKey},${oldKey}`);
      expect(await rowsNotUnderCurrentKey(db)).toBeGreaterThan(0);
      const result = await rotatePersonalDataKey();
      expect(result.orders).toBeGreaterThan(0);
      expect(result.uploads).toBeGreaterThan(0);
      expect(result.keys).toBe(1);
      expect(await rowsNotUnderCurrentKey(db)).toBe(0);
      // Idempotent: a second run finds nothing left.
      expect(await sealPersonalData(db, "all")).toEqual({ keys: 0, orders: 0, drafts: 0, uploads: 0 });

      useKeys(newKey);
      const rotated = await orderRow(made.orderId);
      expect(readNik(rotated.buyerNik, { orderId: rotated.id })).toBe(nik);
      expect(decryptText((await orderRow(legacy.orderId)).buyerNik, nikContext({ orderId: legacy.orderId }))).toBe(legacyNik);
      // The keyed hash does not change with the key: the same-NIK rules hold through a rotation.
      expect(rotated.buyerNikHash).toBe(row.buyerNikHash);
      expect(await getOwnedUpload(row.ktpUploadId!, made.user.id)).toMatchObject({ contentType: "image/jpeg" });
      // The old key alone no longer opens what was re-sealed.
      useKeys(oldKey);
      expect(() => readNik(rotated.buyerNik, { orderId: rotated.id })).toThrow(/no key with id/);
    } finally {
      // Back under the old key for the other tests: rotate again, the other way round.
      useKeys(`${oldKey},${newKey}`);
      await rotatePersonalDataKey();
      useKeys(oldKey);
    }
  });

  it("leaves no NIK and no KTP bytes in clear in the database files or a backup", async () => {
    const made = await createOrderInStatus(db, 100);
    const row = await orderRow(made.orderId);
    const nik = readNik(row.buyerNik, { orderId: row.id });
    const marker = Buffer.concat([Buffer.from("KTP-PICTURE-"), crypto.randomBytes(48)]);
    const photoId = await saveUpload(made.user.id, "ktp", { bytes: marker, contentType: "image/jpeg" });
    expect(Buffer.from((await getOwnedUpload(photoId, made.user.id))!.bytes).equals(marker)).toBe(true);
    const dataDir = process.env.DATA_DIR!;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "privacy-backup-")), "store.backup");
    const backup = await backupDatabase(file);
    expect(backup.ok).toBe(true);
    // PGlite's backup is a gzip'd data directory; PostgreSQL's a pg_dump custom archive (compressed
    // inside), read back as the plain SQL pg_restore would run.
    const dump = process.env.DATABASE_URL
      ? execFileSync(findPgTool("pg_restore"), ["--file", "-", file], { maxBuffer: 512 * 1024 * 1024 })
      : zlib.gunzipSync(fs.readFileSync(file));
    const needles = [Buffer.from(nik), marker.subarray(12)];
    for (const needle of needles) expect(dump.includes(needle)).toBe(false);
    if (!process.env.DATABASE_URL) {
      const files = fs.readdirSync(path.join(dataDir, "pglite"), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      for (const entry of files) {
        const content = fs.readFileSync(path.join(entry.parentPath, entry.name));
        for (const needle of needles) expect(content.includes(needle), entry.name).toBe(false);
      }
    }
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});

describe("the NIK bound to its row (issue 45 item 13)", () => {
  const draftNik = async (userId: number) =>
    (await db.select({ values: checkoutDrafts.values }).from(checkoutDrafts).where(eq(checkoutDrafts.userId, userId)))[0]!.values.buyerNik!;
  const setDraftNik = (userId: number, sealed: string) =>
    db
      .update(checkoutDrafts)
      .set({ values: sql`jsonb_set(${checkoutDrafts.values}, '{buyerNik}', to_jsonb(${sealed}::text))` })
      .where(eq(checkoutDrafts.userId, userId));
  async function draftWithNik(nik: string) {
    const user = await createVerifiedUser(db);
    await startCheckout({ id: user.id, verified: true }, await createProduct(db));
    await saveDraftValues(user.id, { buyerNik: nik });
    return user.id;
  }

  it("a sealed NIK copied into another order's or another draft's row does not open there", async () => {
    const a = await createOrderInStatus(db, 100);
    const b = await createOrderInStatus(db, 100);
    const sealedA = (await orderRow(a.orderId)).buyerNik;
    expect(readNik(sealedA, { orderId: a.orderId })).toMatch(/^\d{16}$/);
    await db.update(orders).set({ buyerNik: sealedA }).where(eq(orders.id, b.orderId));
    expect(() => readNik(sealedA, { orderId: b.orderId })).toThrow(DataDecryptionError);
    await expect(getOrderForOps(b.orderId)).rejects.toThrow(DataDecryptionError);

    const nik = randomNik();
    const first = await draftWithNik(nik);
    const second = await draftWithNik(randomNik());
    expect((await getCheckoutDraft(first))!.values.buyerNik).toBe(nik);
    await setDraftNik(second, await draftNik(first));
    await expect(getCheckoutDraft(second)).rejects.toThrow(DataDecryptionError);
  });

  it("reads a NIK sealed under the old constant, binds it to its row once (a marker spares later starts the trial)", async () => {
    const made = await createOrderInStatus(db, 100);
    const before = await orderRow(made.orderId);
    const nik = readNik(before.buyerNik, { orderId: made.orderId });
    const draftUser = await draftWithNik(nik);
    // As a store before this release has them: sealed under 'nik', and the pass not yet run.
    await db
      .update(orders)
      .set({ buyerNik: encryptText(nik, "nik") })
      .where(eq(orders.id, made.orderId));
    await setDraftNik(draftUser, encryptText(nik, "nik"));
    // The start of this file's database ran the pass already (rotation.ts's start-up task): its marker is set.
    const [marker] = await db.select().from(storeSettings).where(eq(storeSettings.key, NIK_BOUND_TO_ROWS));
    expect(marker).toMatchObject({ value: true, updatedBy: "start-up" });
    await db.delete(storeSettings).where(eq(storeSettings.key, NIK_BOUND_TO_ROWS));
    expect((await getOrderForOps(made.orderId))!.buyer.nik).toBe(maskNik(nik));
    expect((await getCheckoutDraft(draftUser))!.values.buyerNik).toBe(nik);

    // Two instances starting at once (outside the start-up lock here): each row re-sealed once, neither fails.
    const [one, two] = await Promise.all([bindNiksToTheirRows(db), bindNiksToTheirRows(db)]);
    expect(one!.orders + two!.orders).toBeGreaterThanOrEqual(1);
    expect(one!.drafts + two!.drafts).toBeGreaterThanOrEqual(1);
    const after = await orderRow(made.orderId);
    expect(decryptText(after.buyerNik, nikContext({ orderId: made.orderId }))).toBe(nik);
    expect(() => decryptText(after.buyerNik, "nik")).toThrow(DataDecryptionError);
    expect(after.buyerNikHash).toBe(before.buyerNikHash);
    expect(decryptText(await draftNik(draftUser), nikContext({ draftOf: draftUser }))).toBe(nik);

    // Done once: the next start finds the marker and opens no order.
    await db
      .update(orders)
      .set({ buyerNik: encryptText(nik, "nik") })
      .where(eq(orders.id, made.orderId));
    expect(await bindNiksToTheirRows(db)).toBeNull();
    const untouched = (await orderRow(made.orderId)).buyerNik;
    expect(() => decryptText(untouched, nikContext({ orderId: made.orderId }))).toThrow(DataDecryptionError);
    expect(readNik(untouched, { orderId: made.orderId })).toBe(nik);
  });
});
