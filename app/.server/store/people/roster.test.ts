import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "../../db/client";
import { operatorAudit, rosterEntries, rosterLinkRequests, users } from "../../db/schema";
import { csvTooLarge } from "../../csv";
import { createCompany, createProduct, createVerifiedUser, EMPLOYEE_PROMO } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { checkEmployeePromo, checkOrderRules, startCheckout } from "../checkout";
import { submission } from "../../testing/fixtures";
import { registerUser, type RegisterInput } from "./accounts";
import {
  changeAccountEmployment,
  employeeStanding,
  findAccountsForOps,
  listRoster,
  NIP_ALREADY_LINKED,
  NIP_NOT_ON_ROSTER,
  NOT_ACTIVE_EMPLOYEE,
  type RosterRow,
  updateRosterEntry,
} from "./roster";
import { applyRosterImport, previewRosterImport, ROSTER_FIX_ROWS_FIRST, ROSTER_MAX_BYTES } from "./roster-import";
import { decideLinkRequest, ENTRY_HELD_FOR_OPERATOR } from "./roster-requests";
import {
  requestRosterMatch,
  linkRosterAccount,
  ROSTER_LINK_REFUSED,
  rosterCandidates,
  rosterMatchFor,
  unlinkRosterAccount,
} from "./roster-links";

// The employee roster (issue 27): the CSV import (preview, apply, idempotent, the deactivation
// option, hostile files), registration against it (and the race of 30 approvals for one NIP),
// the eligibility rules checkout asks, the admin's change of NIP/company. Every test makes its own
// company, so rosters never touch the accounts of other tests.

vi.setConfig({ testTimeout: 120_000 });

let db: Db;
let operatorId: number;
ownDatabaseForThisFile();
beforeAll(async () => {
  db = await getDb();
  operatorId = (await createVerifiedUser(db)).id;
});

const newCompany = () => createCompany(db, "Roster");

const csv = (lines: string[]) => lines.join("\n") + "\n";
const NO_DEACTIVATION = { deactivateMissing: false };

async function applied(content: string, options = NO_DEACTIVATION) {
  const result = await applyRosterImport(content, options, operatorId);
  if (!result.ok) throw new Error(result.message);
  return result.counts;
}

/** The open link request of the account (registration or /konfirmasi-pegawai), approved by the operator. */
async function approveRequestOf(userId: number) {
  const [request] = await db
    .select({ id: rosterLinkRequests.id })
    .from(rosterLinkRequests)
    .where(and(eq(rosterLinkRequests.userId, userId), inArray(rosterLinkRequests.state, ["email", "petugas"])));
  return decideLinkRequest(operatorId, request!.id, "approve");
}

/** Registers with a roster NIP and has the operator approve the link. */
async function linkedRegistration(input: RegisterInput): Promise<number> {
  const registered = await registerUser(input);
  if (!registered.ok || !registered.value.userId) throw new Error("registration failed");
  expect(await approveRequestOf(registered.value.userId)).toEqual({ ok: true });
  return registered.value.userId;
}

const registration = (companyId: number, nip: string, overrides: Partial<RegisterInput> = {}): RegisterInput => ({
  fullname: "Dewi Lestari",
  phoneNo: "081234567890",
  nip,
  companyId,
  email: `pegawai-${randomUUID().slice(0, 12)}@example.test`,
  password: "rahasia123",
  ...overrides,
});

describe("the roster import", () => {
  it("previews the counts without changing anything, applies in one go, and a second apply changes nothing", async () => {
    const company = await newCompany();
    const file = csv([
      "nip,nama,perusahaan,status",
      `1001,Andi,${company.name},aktif`,
      `1002,Budi,${company.name},aktif`,
      `1003,Citra,${company.name},nonaktif`,
    ]);
    const preview = await previewRosterImport(file, NO_DEACTIVATION);
    expect(preview).toEqual({
      ok: true,
      rows: 3,
      toAdd: 3,
      toUpdate: 0,
      toDeactivate: 0,
      companies: [company.name],
      problems: [],
      problemCount: 0,
    });
    expect(await db.select().from(rosterEntries).where(eq(rosterEntries.companyId, company.id))).toEqual([]);

    expect(await applied(file)).toMatchObject({ toAdd: 3, toUpdate: 0, toDeactivate: 0 });
    expect((await listRoster(company.id, "", 1)).rows.map((r) => [r.nip, r.name, r.status])).toEqual([
      ["1001", "Andi", "aktif"],
      ["1002", "Budi", "aktif"],
      ["1003", "Citra", "nonaktif"],
    ]);
    // Idempotent: the same file again is all unchanged.
    expect(await previewRosterImport(file, NO_DEACTIVATION)).toMatchObject({ toAdd: 0, toUpdate: 0, toDeactivate: 0 });
    expect(await applied(file)).toMatchObject({ toAdd: 0, toUpdate: 0, toDeactivate: 0 });
    expect(await db.select().from(rosterEntries).where(eq(rosterEntries.companyId, company.id))).toHaveLength(3);
    const audit = await db.select({ detail: operatorAudit.detail }).from(operatorAudit).where(eq(operatorAudit.action, "roster-import"));
    expect(audit.map((a) => a.detail)).toContain(`3 ditambah, 0 diubah, 0 dinonaktifkan (${company.name})`);
  });

  it("semicolons, any column order and case; a change is 'akan diubah'; 'Nonaktifkan yang tidak ada di file' deactivates only that company's missing entries", async () => {
    const company = await newCompany();
    const other = await newCompany();
    await applied(
      csv([
        "nip,nama,perusahaan,status",
        `1,Andi,${company.name},aktif`,
        `2,Budi,${company.name},aktif`,
        `3,Citra,${company.name},aktif`,
        `9,Lain,${other.name},aktif`,
      ]),
    );
    const next = csv([
      "Status;NIP;Perusahaan;Nama",
      `AKTIF;1;${company.name.toUpperCase()};Andi Wijaya`,
      `aktif;2;${company.name};Budi`,
      `aktif;4;${company.name};Dodi`,
    ]);
    expect(await previewRosterImport(next, NO_DEACTIVATION)).toMatchObject({ rows: 3, toAdd: 1, toUpdate: 1, toDeactivate: 0 });
    expect(await previewRosterImport(next, { deactivateMissing: true })).toMatchObject({ rows: 3, toAdd: 1, toUpdate: 1, toDeactivate: 1 });
    expect(await applied(next, { deactivateMissing: true })).toMatchObject({ toAdd: 1, toUpdate: 1, toDeactivate: 1 });
    const byNip = Object.fromEntries((await listRoster(company.id, "", 1)).rows.map((r) => [r.nip, `${r.name}/${r.status}`]));
    expect(byNip).toEqual({ "1": "Andi Wijaya/aktif", "2": "Budi/aktif", "3": "Citra/nonaktif", "4": "Dodi/aktif" });
    // The other company is not in the file: untouched.
    expect((await listRoster(other.id, "", 1)).rows.map((r) => r.status)).toEqual(["aktif"]);
    expect(await applied(next, { deactivateMissing: true })).toMatchObject({ toAdd: 0, toUpdate: 0, toDeactivate: 0 });
  });

  it("hostile files: each bad row with its line (header = 1), nothing applied; broken, binary, oversized and wrong-header files refused whole", async () => {
    const company = await newCompany();
    const bad = csv([
      "nip,nama,perusahaan,status",
      `1,Andi,${company.name},aktif`,
      `=1+1,Budi,${company.name},aktif`,
      `,Tanpa NIP,${company.name},aktif`,
      `3,,${company.name},aktif`,
      "4,Dodi,PT Tidak Ada,aktif",
      `5,Eko,${company.name},pensiun`,
      `1,Andi Lagi,${company.name},aktif`,
      `6,@SUM(A1),${company.name},aktif`,
    ]);
    const preview = await previewRosterImport(bad, NO_DEACTIVATION);
    expect(preview).toMatchObject({ ok: true, problemCount: 7 });
    expect(preview.ok && preview.problems).toEqual([
      "Baris 3: Nilai tidak boleh diawali =, +, - atau @.",
      "Baris 4: NIP tidak boleh kosong.",
      "Baris 5: Nama tidak boleh kosong.",
      'Baris 6: Perusahaan "PT Tidak Ada" tidak ada di daftar perusahaan.',
      "Baris 7: Status harus aktif atau nonaktif.",
      "Baris 8: NIP 1 sudah ada di baris 2.",
      "Baris 9: Nilai tidak boleh diawali =, +, - atau @.",
    ]);
    expect(await applyRosterImport(bad, { deactivateMissing: true }, operatorId)).toEqual({ ok: false, message: ROSTER_FIX_ROWS_FIRST });
    expect(await db.select().from(rosterEntries).where(eq(rosterEntries.companyId, company.id))).toEqual([]);

    expect(
      await previewRosterImport(
        csv(["nip,nama,perusahaan,status", `1,"Andi,${company.name},aktif`, `2,Budi,${company.name},aktif`]),
        NO_DEACTIVATION,
      ),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/^Baris \d+: format CSV rusak/) });
    expect(await previewRosterImport(csv(["nip,nama,perusahaan", `1,Andi,${company.name}`]), NO_DEACTIVATION)).toEqual({
      ok: false,
      message: "Kolom wajib tidak ada: status.",
    });
    expect(await previewRosterImport(csv(["nip,nama,perusahaan,status,gaji", `1,Andi,${company.name},aktif,1`]), NO_DEACTIVATION)).toEqual({
      ok: false,
      message: "Kolom tidak dikenal: gaji.",
    });
    expect(await previewRosterImport("nip,nama,perusahaan,status\n\u0000\u0001", NO_DEACTIVATION)).toEqual({
      ok: false,
      message: "File harus berupa CSV, bukan file lain. Dari Excel: pilih Simpan Sebagai, lalu jenis file CSV.",
    });
    expect(await previewRosterImport("nip,nama,perusahaan,status\n", NO_DEACTIVATION)).toEqual({
      ok: false,
      message: "File CSV tidak berisi data pegawai.",
    });
    expect(await previewRosterImport("", NO_DEACTIVATION)).toEqual({ ok: false, message: "File CSV kosong." });
    expect(await previewRosterImport("x".repeat(ROSTER_MAX_BYTES + 1), NO_DEACTIVATION)).toEqual({
      ok: false,
      message: csvTooLarge(ROSTER_MAX_BYTES),
    });
  });

  it("never links an account by itself (issue 35): the operator links a candidate or the employee confirms; 'Putuskan' undoes; a single edit and 'Nonaktifkan' are audited", async () => {
    const company = await newCompany();
    // A stranger registers first with the employee's NIP (company without a roster yet: any NIP).
    const stranger = await registerUser(registration(company.id, "7007", { fullname: "Orang Lain" }));
    const early = await registerUser(registration(company.id, "7008", { fullname: "Gita" }));
    if (!stranger.ok || !stranger.value.userId || !early.ok || !early.value.userId) throw new Error("registration failed");
    expect(await employeeStanding(early.value.userId)).toBe("no-roster");
    await applied(csv(["nip,nama,perusahaan,status", `7007,Gita Savitri,${company.name},aktif`, `7008,Gita,${company.name},aktif`]));
    // Neither account was linked by the import.
    expect(await employeeStanding(stranger.value.userId)).toBe("inactive");
    expect(await employeeStanding(early.value.userId)).toBe("inactive");
    const rows = (await listRoster(company.id, "700", 1)).rows;
    expect(rows.map((r) => r.accountEmail)).toEqual([null, null]);
    const [squatted, own] = rows as [RosterRow, RosterRow];
    const candidates = await rosterCandidates([squatted.id, own.id]);
    expect(candidates.map((c) => [c.entryId, c.userId])).toEqual([
      [squatted.id, stranger.value.userId],
      [own.id, early.value.userId],
    ]);

    // The employee confirms on sign-in only with a verified account whose name is the roster's.
    expect(await rosterMatchFor(early.value.userId)).toBeNull();
    await db
      .update(users)
      .set({ verifiedAt: new Date() })
      .where(inArray(users.id, [early.value.userId, stranger.value.userId]));
    expect(await rosterMatchFor(early.value.userId)).toMatchObject({ entryId: own.id, nip: "7008", companyName: company.name });
    expect(await rosterMatchFor(stranger.value.userId)).toBeNull();
    expect(await requestRosterMatch(stranger.value.userId)).toBeNull();
    // Asking links nothing by itself (decision 0069): the operator approves.
    expect(await requestRosterMatch(early.value.userId)).toBe("petugas");
    expect(await employeeStanding(early.value.userId)).toBe("inactive");
    expect(await approveRequestOf(early.value.userId)).toEqual({ ok: true });
    expect(await employeeStanding(early.value.userId)).toBe("active");
    expect(await requestRosterMatch(early.value.userId)).toBeNull();

    // An operator links the stranger by mistake, then undoes it; the entry is free for the employee again.
    expect(await linkRosterAccount(operatorId, squatted.id, early.value.userId)).toEqual({ ok: false, message: ROSTER_LINK_REFUSED });
    expect(await linkRosterAccount(operatorId, squatted.id, stranger.value.userId)).toEqual({ ok: true });
    expect(await employeeStanding(stranger.value.userId)).toBe("active");
    expect(await unlinkRosterAccount(operatorId, squatted.id)).toEqual({ ok: true });
    expect(await unlinkRosterAccount(operatorId, squatted.id)).toEqual({ ok: false, message: ROSTER_LINK_REFUSED });
    expect(await employeeStanding(stranger.value.userId)).toBe("inactive");
    const links = await db
      .select({ action: operatorAudit.action, detail: operatorAudit.detail })
      .from(operatorAudit)
      .where(inArray(operatorAudit.action, ["roster-link", "roster-unlink"]));
    expect(links.filter((l) => l.detail?.includes(`akun ${stranger.value.userId}`)).map((l) => l.action)).toEqual([
      "roster-link",
      "roster-unlink",
    ]);

    const [entry] = (await listRoster(company.id, "7008", 1)).rows;
    expect(entry).toMatchObject({ nip: "7008", accountEmail: expect.stringContaining("@example.test") });

    expect(await updateRosterEntry(operatorId, entry!.id, { name: "  " })).toEqual({
      ok: false,
      field: "name",
      message: "Nama tidak boleh kosong.",
    });
    expect(await updateRosterEntry(operatorId, entry!.id, { name: "Gita Pratiwi", status: "aktif" })).toEqual({ ok: true });
    expect(await updateRosterEntry(operatorId, entry!.id, { status: "nonaktif" })).toEqual({ ok: true });
    expect(await employeeStanding(early.value.userId)).toBe("inactive");
    expect((await listRoster(company.id, "pratiwi", 1)).rows).toMatchObject([{ name: "Gita Pratiwi", status: "nonaktif" }]);
    expect(await updateRosterEntry(operatorId, 2_000_000_000, { status: "nonaktif" })).toEqual({
      ok: false,
      message: "Data pegawai tidak ditemukan.",
    });
    const audit = await db.select({ detail: operatorAudit.detail }).from(operatorAudit).where(eq(operatorAudit.action, "roster-edit"));
    expect(audit.some((a) => a.detail?.includes("NIP 7008") && a.detail.includes("nonaktif"))).toBe(true);
  });
});

describe("registration against the roster", () => {
  it("a company with a roster: only an active entry not yet linked; a company without one: any NIP", async () => {
    const company = await newCompany();
    await applied(csv(["nip,nama,perusahaan,status", `2001,Hana,${company.name},aktif`, `2002,Indra,${company.name},nonaktif`]));
    expect(await registerUser(registration(company.id, "9999"))).toEqual({ ok: false, field: "nip", message: NIP_NOT_ON_ROSTER });
    expect(await registerUser(registration(company.id, "2002"))).toEqual({ ok: false, field: "nip", message: NIP_NOT_ON_ROSTER });
    const ok = await registerUser(registration(company.id, " 2001 "));
    expect(ok).toMatchObject({ ok: true, value: { userId: expect.any(Number), rosterLink: "petugas" } });
    expect(await approveRequestOf((ok.ok && ok.value.userId) || 0)).toEqual({ ok: true });
    expect(await registerUser(registration(company.id, "2001"))).toEqual({ ok: false, field: "nip", message: NIP_ALREADY_LINKED });
    const [entry] = await db.select({ userId: rosterEntries.userId }).from(rosterEntries).where(eq(rosterEntries.nip, "2001"));
    expect(entry!.userId).toBe(ok.ok && ok.value.userId);
    // Refused registrations created no account.
    expect(await db.select({ id: users.id }).from(users).where(eq(users.companyId, company.id))).toHaveLength(1);

    const open = await newCompany();
    expect(await registerUser(registration(open.id, "apa-saja-123"))).toMatchObject({ ok: true, value: { rosterLink: null } });
  });

  it("30 registrations with one roster NIP each ask; of 30 simultaneous approvals exactly one links, 29 are told the entry is taken", async () => {
    const company = await newCompany();
    await applied(csv(["nip,nama,perusahaan,status", `3001,Joko,${company.name},aktif`]));
    const results = await Promise.all(Array.from({ length: 30 }, () => registerUser(registration(company.id, "3001"))));
    expect(results.every((r) => r.ok && r.value.userId && r.value.rosterLink === "petugas")).toBe(true);
    const accounts = await db.select({ id: users.id }).from(users).where(eq(users.companyId, company.id));
    expect(accounts).toHaveLength(30);
    const approvals = await Promise.all(accounts.map((a) => approveRequestOf(a.id)));
    const linked = approvals.filter((r) => r.ok);
    expect(linked).toHaveLength(1);
    expect(approvals.filter((r) => !r.ok)).toEqual(Array.from({ length: 29 }, () => ({ ok: false, message: ENTRY_HELD_FOR_OPERATOR })));
    const [entry] = await db.select({ userId: rosterEntries.userId }).from(rosterEntries).where(eq(rosterEntries.companyId, company.id));
    expect(accounts.map((a) => a.id)).toContain(entry!.userId);
    console.log(`[roster race] 30 approvals, ${linked.length} account linked, ${approvals.length - linked.length} refused`);
  });
});

describe("eligibility follows the roster", () => {
  it("active: the employee promo; deactivated: no promo, no new checkout, no order from an older draft; reactivated: both again", async () => {
    const company = await newCompany();
    await applied(csv(["nip,nama,perusahaan,status", `4001,Kiki,${company.name},aktif`]));
    const userId = await linkedRegistration(registration(company.id, "4001"));
    await db.update(users).set({ verifiedAt: new Date() }).where(eq(users.id, userId));
    const [user] = await db
      .select({ id: users.id, email: users.email, nip: users.nip, fullname: users.fullname, phoneNo: users.phoneNo })
      .from(users)
      .where(eq(users.id, userId));
    const product = { id: await createProduct(db, { promos: [EMPLOYEE_PROMO] }) };

    expect(await employeeStanding(userId)).toBe("active");
    expect(await checkEmployeePromo(userId, product.id, "4001")).toMatchObject({ kind: "employee", discount: 1_000_000 });
    expect(await startCheckout({ id: userId, verified: true }, product.id)).toEqual({ ok: true });

    const [entry] = await db.select({ id: rosterEntries.id }).from(rosterEntries).where(eq(rosterEntries.userId, userId));
    await updateRosterEntry(operatorId, entry!.id, { status: "nonaktif" });
    expect(await employeeStanding(userId)).toBe("inactive");
    expect(await checkEmployeePromo(userId, product.id, "4001")).toBeNull();
    expect(await startCheckout({ id: userId, verified: true }, product.id)).toEqual({ ok: false, message: NOT_ACTIVE_EMPLOYEE });
    // The draft made while active cannot become an order now.
    expect(await checkOrderRules(userId, submission(user!))).toEqual({ ok: false, field: "product", message: NOT_ACTIVE_EMPLOYEE });

    await updateRosterEntry(operatorId, entry!.id, { status: "aktif" });
    expect(await checkEmployeePromo(userId, product.id, "4001")).not.toBeNull();
    expect(await startCheckout({ id: userId, verified: true }, product.id)).toEqual({ ok: true });
  });

  it("an account of a company with a roster it is not on is not eligible; a company without a roster is, as before", async () => {
    const company = await newCompany();
    const before = await registerUser(registration(company.id, "5555"));
    if (!before.ok || !before.value.userId) throw new Error("registration failed");
    await applied(csv(["nip,nama,perusahaan,status", `5001,Lina,${company.name},aktif`]));
    expect(await employeeStanding(before.value.userId)).toBe("inactive");
    expect(
      (
        await findAccountsForOps(
          before.value.userId
            ? (await db.select({ email: users.email }).from(users).where(eq(users.id, before.value.userId)))[0]!.email
            : "",
        )
      )[0],
    ).toMatchObject({ standing: "unlisted" });
    const open = await createVerifiedUser(db);
    expect(await employeeStanding(open.id)).toBe("no-roster");
    expect(await employeeStanding(2_000_000_000)).toBe("inactive");
  });
});

describe("the admin's change of an account's NIP or company", () => {
  it("is checked against the new company's roster, moves the link, and is audited", async () => {
    const company = await newCompany();
    await applied(
      csv([
        "nip,nama,perusahaan,status",
        `6001,Maya,${company.name},aktif`,
        `6002,Nina,${company.name},aktif`,
        `6003,Oki,${company.name},nonaktif`,
      ]),
    );
    const userId = await linkedRegistration(registration(company.id, "6001"));
    await linkedRegistration(registration(company.id, "6002"));

    expect(await changeAccountEmployment(operatorId, userId, { companyId: company.id, nip: "6002" })).toEqual({
      ok: false,
      field: "nip",
      message: NIP_ALREADY_LINKED,
    });
    expect(await changeAccountEmployment(operatorId, userId, { companyId: company.id, nip: "6003" })).toEqual({
      ok: false,
      field: "nip",
      message: NIP_NOT_ON_ROSTER,
    });
    expect(await changeAccountEmployment(operatorId, userId, { companyId: company.id, nip: "" })).toEqual({
      ok: false,
      field: "nip",
      message: "NIP tidak boleh kosong.",
    });
    // Nothing moved on a refusal.
    expect((await db.select({ nip: users.nip }).from(users).where(eq(users.id, userId)))[0]!.nip).toBe("6001");

    const open = await newCompany();
    expect(await changeAccountEmployment(operatorId, userId, { companyId: open.id, nip: "X-1" })).toEqual({ ok: true });
    expect(await employeeStanding(userId)).toBe("no-roster");
    // The old entry is free again, for its rightful owner.
    expect(
      (await db.select({ userId: rosterEntries.userId }).from(rosterEntries).where(eq(rosterEntries.nip, "6001")))[0]!.userId,
    ).toBeNull();
    await db.update(rosterEntries).set({ status: "aktif" }).where(eq(rosterEntries.nip, "6003"));
    expect(await changeAccountEmployment(operatorId, userId, { companyId: company.id, nip: "6003" })).toEqual({ ok: true });
    expect(await employeeStanding(userId)).toBe("active");
    const audit = await db
      .select({ detail: operatorAudit.detail })
      .from(operatorAudit)
      .where(eq(operatorAudit.action, "account-employment"));
    expect(audit.map((a) => a.detail)).toContain(`akun ${userId}: perusahaan ${open.id} → ${company.id}, NIP X-1 → 6003`);
  });
});
