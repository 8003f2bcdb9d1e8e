import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../db/client";
import { setLockRole } from "../db/data-dir-lock";
import { orderEvents, orders, payments } from "../db/schema";
import { env } from "../env";
import { listNotifications, readOutbox } from "../store/messages";
import { settleMessages } from "../testing/messages";
import { log } from "../log";
import { BUILT_IN_REWARD_RULE, creditOrderReward, getBalance, listBalanceHistory } from "../store/orders";
import { createVerifiedUser, productStock } from "../testing/fixtures";
import { createOrderInStatus } from "../testing/order-fixtures";
import { createBuyer, createStockedProduct, placeOrder, productStock as stockOf } from "../testing/payment-fixtures";
import { opsSocketPath, sendOpsCommand, startOpsChannel } from "./channel";
import { runOpsCommand } from "./commands";

// This test process plays the store server: it holds the data directory's lock as "server", and
// (in the socket tests) serves the ops socket, while the real CLI runs as a child process.
setLockRole("server");
beforeAll(async () => {
  await getDb();
}, 300_000);

async function ops(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOpsCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function statusOf(orderId: number) {
  const db = await getDb();
  const [row] = await db.select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId));
  return row!.statusId;
}

async function mailsTo(email: string) {
  await settleMessages();
  return (await readOutbox(500)).filter((m) => m.to === email);
}

type Case = {
  command: string;
  args?: string[];
  from: 100 | 200 | 301 | 302 | 300 | 400;
  to: number;
  refusedFrom: 100 | 200 | 301 | 302 | 300 | 400;
};
// Rejections name their reason (the rest of the line); shipping names the courier and tracking number.
const REASON = ["Foto", "KTP", "buram"];
const SHIPPING = ["JNE", "JNE0012345"];
const DECISIONS: Case[] = [
  { command: "orders:approve-incentive", from: 100, to: 200, refusedFrom: 200 },
  { command: "orders:reject-incentive", args: REASON, from: 100, to: 2, refusedFrom: 301 },
  { command: "orders:approve-installment", from: 301, to: 300, refusedFrom: 302 },
  { command: "orders:reject-installment", args: REASON, from: 301, to: 2, refusedFrom: 100 },
  { command: "orders:verify-transfer", from: 302, to: 300, refusedFrom: 301 },
  // Every rejection of a proof says whether the money arrived (issue 45 item 1).
  { command: "orders:reject-transfer", args: ["--no-money-received", ...REASON], from: 302, to: 200, refusedFrom: 300 },
  { command: "orders:reject-transfer-final", args: ["--no-money-received", ...REASON], from: 302, to: 2, refusedFrom: 200 },
  { command: "orders:ship", args: SHIPPING, from: 300, to: 400, refusedFrom: 400 },
  { command: "orders:cancel-refund", args: REASON, from: 300, to: 1, refusedFrom: 302 },
];

describe("order commands", () => {
  for (const c of DECISIONS) {
    it(`${c.command}: ${c.from} → ${c.to}; refused (exit 1, one line, nothing changes) from ${c.refusedFrom} and when repeated`, async () => {
      const db = await getDb();
      const { orderId } = await createOrderInStatus(db, c.from);
      const done = await ops(c.command, String(orderId), ...(c.args ?? []));
      expect(done).toEqual({ code: 0, out: `order ${orderId}: ${c.from} → ${c.to}`, err: "" });
      expect(await statusOf(orderId)).toBe(c.to);
      const events = await db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.id);
      expect(events.at(-1)).toMatchObject({ fromStatus: c.from, toStatus: c.to, actor: "ops" });

      const again = await ops(c.command, String(orderId), ...(c.args ?? []));
      expect(again.code).toBe(1);
      expect(again.err).toMatch(
        new RegExp(
          `^order ${orderId}: Status pesanan tidak dapat diubah\\. Pesanan berstatus ${c.to} .+; perintah ini hanya untuk status ${c.from}\\.$`,
        ),
      );
      expect(again.out).toBe("");
      expect(await statusOf(orderId)).toBe(c.to);

      const other = await createOrderInStatus(db, c.refusedFrom);
      const refused = await ops(c.command, String(other.orderId), ...(c.args ?? []));
      expect(refused.code).toBe(1);
      expect(refused.err.split("\n")).toHaveLength(1);
      expect(await statusOf(other.orderId)).toBe(c.refusedFrom);
    });
  }

  it("rejecting an incentive returns the stock unit; shipping does not touch it", async () => {
    const db = await getDb();
    const incentive = await createOrderInStatus(db, 100);
    const before = await productStock(db, incentive.productId);
    expect((await ops("orders:reject-incentive", String(incentive.orderId), ...REASON)).code).toBe(0);
    expect(await productStock(db, incentive.productId)).toBe(before + 1);

    const paid = await createOrderInStatus(db, 300);
    const stock = await productStock(db, paid.productId);
    expect((await ops("orders:ship", String(paid.orderId), ...SHIPPING)).code).toBe(0);
    expect(await productStock(db, paid.productId)).toBe(stock);
    const [shipped] = await db
      .select({ courier: orders.courier, trackingNumber: orders.trackingNumber })
      .from(orders)
      .where(eq(orders.id, paid.orderId));
    expect(shipped).toEqual({ courier: "JNE", trackingNumber: "JNE0012345" });
  });

  it("unknown orders, ids that are not ids, missing arguments and unknown commands are refused with a reason", async () => {
    expect(await ops("orders:ship", "999999", ...SHIPPING)).toEqual({ code: 1, out: "", err: "order 999999: Pesanan tidak ditemukan." });
    for (const bad of [
      ["orders:ship"],
      ["orders:ship", "abc", ...SHIPPING],
      ["orders:ship", "-3", ...SHIPPING],
      ["orders:ship", "1.5", ...SHIPPING],
      ["orders:ship", "99999999999", ...SHIPPING],
      ["orders:ship", "1", "2"],
      ["orders:ship", "1"],
    ]) {
      const result = await ops(...bad);
      expect(result.code).toBe(2);
      expect(result.err).toBe("usage: npm run ops -- orders:ship <id> <kurir> <nomor-resi>");
    }
    expect(await ops("orders:reject-incentive", "1")).toMatchObject({
      code: 2,
      err: "usage: npm run ops -- orders:reject-incentive <id> <alasan…>",
    });
    // The same rules as the back office: an unknown courier is refused, nothing changes.
    const db = await getDb();
    const paid = await createOrderInStatus(db, 300);
    expect(await ops("orders:ship", String(paid.orderId), "Kilat", "X1")).toEqual({
      code: 1,
      out: "",
      err: `order ${paid.orderId}: Kurir tidak boleh kosong.`,
    });
    expect(await statusOf(paid.orderId)).toBe(300);
    expect(await ops("orders:teleport", "1")).toMatchObject({
      code: 2,
      err: "unknown command: orders:teleport (npm run ops -- help lists them)",
    });
    expect(await ops("constructor")).toMatchObject({ code: 2 });
    const help = await ops("help");
    expect(help.code).toBe(0);
    for (const name of ["orders:list", "orders:approve-incentive", "orders:expire", "balance:withdraw", "balance:settle"])
      expect(help.out).toContain(name);
    // Aligned columns (issue 25): every description starts in the same column, two spaces after the longest usage.
    const rows = help.out.split("\n").filter((line) => /^ {2}\S/.test(line));
    const column = rows[0]!.search(/\S\s{2,}\S/) + rows[0]!.match(/\S\s{2,}/)![0].length;
    for (const row of rows) {
      expect(row.slice(column - 2, column), row).toBe("  ");
      expect(row[column], row).toMatch(/\S/);
    }
    expect(help.out).toMatch(/orders:reject-incentive <id> <alasan…> {2,}incentive rejected/);
  });

  it("orders:list shows id, invoice, status, buyer e-mail, amount and date, newest first, filtered by --status", async () => {
    const db = await getDb();
    const shipped = await createOrderInStatus(db, 400);
    const waiting = await createOrderInStatus(db, 302);
    const all = await ops("orders:list");
    expect(all.code).toBe(0);
    const lines = all.out.split("\n");
    expect(lines[0]).toMatch(/^id\s+invoice\s+status\s+buyer e-mail\s+amount\s+date \(UTC\)$/);
    const row = (id: number) => lines.findIndex((l) => l.startsWith(`${id} `));
    expect(row(waiting.orderId)).toBeGreaterThan(1);
    expect(row(waiting.orderId)).toBeLessThan(row(shipped.orderId));
    const [invoice] = await db
      .select({ invoiceId: orders.invoiceId, amount: orders.totalAmount })
      .from(orders)
      .where(eq(orders.id, shipped.orderId));
    expect(lines[row(shipped.orderId)]).toMatch(
      new RegExp(
        `^${shipped.orderId}\\s+${invoice!.invoiceId}\\s+400 Dalam Pengiriman\\s+${shipped.user.email}\\s+${invoice!.amount}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`,
      ),
    );

    const only302 = await ops("orders:list", "--status", "302");
    expect(only302.out).toContain(`${waiting.orderId} `);
    expect(
      only302.out
        .split("\n")
        .slice(2, -1)
        .every((l) => /\s302 Verifikasi Bukti Transfer\s/.test(l)),
    ).toBe(true);
    expect(only302.out).not.toMatch(new RegExp(`^${shipped.orderId} `, "m"));
    expect((await ops("orders:list", "--status")).code).toBe(2);
    expect((await ops("orders:list", "--status", "x")).code).toBe(2);
  });

  it("orders:expire moves only orders whose payment deadline passed to 2, returning their stock", async () => {
    const db = await getDb();
    const buyer = await createBuyer();
    const product = await createStockedProduct({ stock: 5 });
    const overdue = await placeOrder(buyer, product, "BNI-VA");
    const fresh = await placeOrder(buyer, product, "MANDIRI-VA");
    // The deadline the payment page shows (payments.expires_at) is the one that counts.
    await db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.orderId, overdue));
    const stock = await stockOf(product);

    const swept = await ops("orders:expire");
    expect(swept.code).toBe(0);
    expect(swept.out).toMatch(new RegExp(`^expired \\d+ order\\(s\\): .*\\b${overdue}\\b`));
    expect(await statusOf(overdue)).toBe(2);
    expect(await stockOf(product)).toBe(stock + 1);
    expect(await statusOf(fresh)).toBe(200);
    expect(await ops("orders:expire")).toEqual({ code: 0, out: "no overdue orders", err: "" });
  });
});

describe("balance commands", () => {
  it("withdraw within the balance (exit 0), refused beyond it (exit 1); settle ok/cancel once", async () => {
    const db = await getDb();
    const { orderId, user } = await createOrderInStatus(db, 400);
    await db.transaction((tx) => creditOrderReward(tx, orderId, user.id, { amount: 10_000_000, rule: BUILT_IN_REWARD_RULE })); // Rp100.000

    const first = await ops("balance:withdraw", user.email, "60000");
    expect(first.code).toBe(0);
    const id = Number(first.out.match(/^withdrawal (\d+): 60000 from /)?.[1]);
    expect(await getBalance(user.id)).toBe(40_000);

    expect(await ops("balance:withdraw", user.email, "40001")).toEqual({
      code: 1,
      out: "",
      err: `${user.email}: Saldo tidak mencukupi. Saldo saat ini Rp40.000.`,
    });
    expect(await ops("balance:withdraw", "nobody@example.test", "1")).toMatchObject({
      code: 1,
      err: "nobody@example.test: Pengguna dengan e-mail tersebut tidak ditemukan.",
    });
    for (const bad of [[user.email], [user.email, "0"], [user.email, "-5"], [user.email, "1e3"], [user.email, "12.5"]])
      expect((await ops("balance:withdraw", ...bad)).code).toBe(2);
    expect(await getBalance(user.id)).toBe(40_000);

    expect(await ops("balance:settle", String(id), "cancel")).toEqual({ code: 0, out: `withdrawal ${id}: Dibatalkan`, err: "" });
    expect(await getBalance(user.id)).toBe(100_000);
    expect(await ops("balance:settle", String(id), "ok")).toMatchObject({
      code: 1,
      err: `withdrawal ${id}: Penarikan sudah diselesaikan sebelumnya. (Dibatalkan)`,
    });
    expect((await ops("balance:settle", String(id), "maybe")).code).toBe(2);
    expect(await ops("balance:settle", "999999", "ok")).toMatchObject({ code: 1, err: "withdrawal 999999: Penarikan tidak ditemukan." });

    const second = await ops("balance:withdraw", user.email, "100000");
    const secondId = Number(second.out.match(/^withdrawal (\d+):/)?.[1]);
    expect(await ops("balance:settle", String(secondId), "ok")).toEqual({ code: 0, out: `withdrawal ${secondId}: Berhasil`, err: "" });
    expect(await getBalance(user.id)).toBe(0);
    expect((await listBalanceHistory(user.id)).map((h) => h.status)).toEqual(["Berhasil", "Dibatalkan", null]);
  });

  it("users:verify and users:list", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db, { verified: false });
    expect(await ops("users:verify", user.email)).toEqual({ code: 0, out: `${user.email} is verified`, err: "" });
    expect(await ops("users:verify", "nobody@example.test")).toMatchObject({ code: 1, err: "no account with e-mail nobody@example.test" });
    const list = await ops("users:list");
    expect(list.code).toBe(0);
    expect(list.out).toMatch(new RegExp(`^${user.id}\\s+${user.email}\\s.*\\s-\\s+\\d{4}-\\d\\d-\\d\\d$`, "m"));
  });

  it("users:grant-operator and users:revoke-operator; users:list shows the roles", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db);
    expect(await ops("users:grant-operator", user.email.toUpperCase())).toEqual({
      code: 0,
      out: `${user.email.toUpperCase()} is an operator (admin)`,
      err: "",
    });
    expect((await ops("users:list")).out).toMatch(new RegExp(`^${user.id}\\s+${user.email}\\s.*\\sadmin\\s+\\d{4}-`, "m"));
    expect(await ops("users:revoke-operator", user.email)).toEqual({ code: 0, out: `${user.email} is no longer an operator`, err: "" });
    expect((await ops("users:list")).out).toMatch(new RegExp(`^${user.id}\\s+${user.email}\\s.*\\s-\\s+\\d{4}-`, "m"));
    expect(await ops("users:grant-operator", "nobody@example.test")).toMatchObject({
      code: 1,
      err: "no account with e-mail nobody@example.test",
    });
    expect(await ops("users:grant-operator")).toMatchObject({ code: 2 });
  });

  it("users:grant and users:revoke take the roles by name", async () => {
    const db = await getDb();
    const user = await createVerifiedUser(db);
    expect(await ops("users:grant", user.email, "katalog", "Keuangan")).toEqual({
      code: 0,
      out: `${user.email}: granted katalog, keuangan`,
      err: "",
    });
    expect((await ops("users:list")).out).toMatch(new RegExp(`^${user.id}\\s+${user.email}\\s.*\\skatalog,keuangan\\s+\\d{4}-`, "m"));
    expect(await ops("users:revoke", user.email, "katalog")).toEqual({ code: 0, out: `${user.email}: revoked katalog`, err: "" });
    expect((await ops("users:list")).out).toMatch(new RegExp(`^${user.id}\\s+${user.email}\\s.*\\skeuangan\\s+\\d{4}-`, "m"));
    expect(await ops("users:grant", user.email, "kasir")).toMatchObject({
      code: 2,
      err: "unknown role kasir (roles: pesanan, katalog, keuangan, pegawai, admin)",
    });
    expect(await ops("users:grant", user.email)).toMatchObject({ code: 2 });
    expect(await ops("users:revoke", "nobody@example.test", "admin")).toMatchObject({
      code: 1,
      err: "no account with e-mail nobody@example.test",
    });
  });
});

const ORDER_OF_SUBJECTS = ["Pengajuan Insentif Disetujui", "Pembayaran Diterima", "Pesanan Dalam Pengiriman"];

describe("buyer e-mails on status changes", () => {
  it("incentive approved, payment received, shipped: one Indonesian e-mail each with the invoice and the order link", async () => {
    const db = await getDb();
    const { orderId, user } = await createOrderInStatus(db, 100);
    const [{ invoiceId }] = (await db.select({ invoiceId: orders.invoiceId }).from(orders).where(eq(orders.id, orderId))) as [
      { invoiceId: string },
    ];
    const link = `${env().appUrl}/transaction-detail/${orderId}`;

    await ops("orders:approve-incentive", String(orderId));
    await db.update(orders).set({ statusId: 302 }).where(eq(orders.id, orderId)); // the buyer sent a transfer proof (payments branch)
    await ops("orders:verify-transfer", String(orderId));
    await ops("orders:ship", String(orderId), ...SHIPPING);

    // The queue's workers deliver them side by side: the outbox's order is not the transitions'.
    const mails = (await mailsTo(user.email)).sort(
      (a, b) => ORDER_OF_SUBJECTS.indexOf(a.subject.split(" – ")[0]!) - ORDER_OF_SUBJECTS.indexOf(b.subject.split(" – ")[0]!),
    );
    expect(mails.map((m) => m.subject)).toEqual([
      `Pengajuan Insentif Disetujui – ${invoiceId}`,
      `Pembayaran Diterima – ${invoiceId}`,
      `Pesanan Dalam Pengiriman – ${invoiceId}`,
    ]);
    for (const m of mails) {
      expect(m.text).toContain(invoiceId);
      expect(m.text).toContain(link);
      expect(m.html).toContain(`href="${link}"`);
      expect(m.text).toMatch(/^Halo Siti Rahma,/);
    }
    expect(mails[0]!.text).toContain("Silakan lanjutkan pembayaran");
    expect(mails[2]!.text).toContain("Konfirmasi Barang Sampai");
    expect(mails[2]!.text).toContain("Kurir: JNE, Nomor Resi: JNE0012345.");
  });

  it("every rejection tells the buyer, with the operator's reason", async () => {
    const db = await getDb();
    const rejected = await createOrderInStatus(db, 100);
    await ops("orders:reject-incentive", String(rejected.orderId), ...REASON);
    const mails = await mailsTo(rejected.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Pengajuan Insentif Ditolak – INV\//);
    expect(mails[0]!.text).toContain("tidak dapat kami setujui");
    expect(mails[0]!.text).toContain("Alasan: Foto KTP buram");

    const proof = await createOrderInStatus(db, 302);
    await ops("orders:reject-transfer", String(proof.orderId), "--no-money-received", "Nominal", "tidak", "sesuai");
    const proofMails = await mailsTo(proof.user.email);
    expect(proofMails).toHaveLength(1);
    expect(proofMails[0]!.subject).toMatch(/^Bukti Transfer Ditolak – INV\//);
    expect(proofMails[0]!.text).toContain("Alasan: Nominal tidak sesuai");

    const installment = await createOrderInStatus(db, 301);
    await ops("orders:reject-installment", String(installment.orderId), "Limit", "tidak", "cukup");
    const [installmentMail] = await mailsTo(installment.user.email);
    expect(installmentMail!.subject).toMatch(/^Pengajuan Cicilan Ditolak – INV\//);
    expect(installmentMail!.text).toContain("Alasan: Limit tidak cukup");
  });

  it("done (→ 500) names the reward credited; a mail failure never fails the transition", async () => {
    const db = await getDb();
    const { orderId, user } = await createOrderInStatus(db, 400);
    const { transitionOrder } = await import("../store/orders");
    await db.transaction((tx) => creditOrderReward(tx, orderId, user.id, { amount: 28_500_000, rule: BUILT_IN_REWARD_RULE }));
    expect(await transitionOrder(orderId, 400, 500, `buyer:${user.id}`)).toEqual({ ok: true });
    // The shipment's e-mail (from the set-up's 300 → 400) is delivered by its own job, maybe after this one.
    const done = (await mailsTo(user.email)).find((m) => m.subject.startsWith("Pesanan Selesai – "));
    expect(done!.text).toContain("Reward sebesar Rp285.000 telah ditambahkan ke saldo Anda.");
    // The buyer's notification of it opens the balance's history, where the reward is listed.
    const { items } = await listNotifications(user.id, { limit: 10 });
    expect(items.find((n) => n.title === "Pesanan Selesai, Reward Ditambahkan")).toMatchObject({ link: "/history-balance" });

    // The outbox cannot be written (a file where its directory should be): the order still ships,
    // and its e-mail waits in the queue for a retry; once the outbox is back, it arrives.
    const outbox = path.join(env().dataDir, "outbox");
    const moved = `${outbox}.aside`;
    fs.renameSync(outbox, moved);
    fs.writeFileSync(outbox, "not a directory");
    const warnings: unknown[][] = [];
    vi.spyOn(log, "warn").mockImplementation(((...a: unknown[]) => void warnings.push(a)) as never);
    const paid = await createOrderInStatus(db, 300);
    try {
      expect((await ops("orders:ship", String(paid.orderId), ...SHIPPING)).code).toBe(0);
      expect(await statusOf(paid.orderId)).toBe(400);
      await expect
        .poll(() => warnings.filter(([, message]) => message === "message not delivered yet").length, { timeout: 15_000 })
        .toBeGreaterThan(0);
    } finally {
      fs.rmSync(outbox);
      fs.renameSync(moved, outbox);
    }
    // Both of this order's e-mails waited (its payment's too): the shipment's arrives once.
    const shipped = (await mailsTo(paid.user.email)).filter((m) => m.subject.startsWith("Pesanan Dalam Pengiriman – "));
    expect(shipped).toHaveLength(1);
  });
});

describe("the CLI while the server runs (PGlite: through the server's socket)", () => {
  const run = promisify(execFile);
  const tsx = path.resolve("node_modules/.bin/tsx");
  let channel: Awaited<ReturnType<typeof startOpsChannel>> | undefined;

  async function cli(...argv: string[]) {
    try {
      const { stdout, stderr } = await run(tsx, ["scripts/ops.ts", ...argv], {
        env: { ...process.env, DATA_DIR: env().dataDir, DATABASE_URL: "" },
        timeout: 60_000,
      });
      return { code: 0, stdout: stdout.trim(), stderr: stderr.trim() };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: (e.stdout ?? "").trim(), stderr: (e.stderr ?? "").trim() };
    }
  }

  beforeAll(async () => {
    await getDb(); // takes the lock as "server"
    if (!process.env.DATABASE_URL) channel = await startOpsChannel(env().dataDir);
  });
  afterAll(async () => {
    await channel?.close();
  });

  it.skipIf(!!process.env.DATABASE_URL)("the socket is only the server user's (0600) inside DATA_DIR", () => {
    const stat = fs.statSync(opsSocketPath(env().dataDir));
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it.skipIf(!!process.env.DATABASE_URL)(
    "a child `npm run ops` moves an order inside this running process, with the same exit codes",
    async () => {
      const db = await getDb();
      const { orderId, user } = await createOrderInStatus(db, 300);
      const shipped = await cli("orders:ship", String(orderId), ...SHIPPING);
      expect(shipped).toEqual({ code: 0, stdout: `order ${orderId}: 300 → 400`, stderr: "" });
      expect(await statusOf(orderId)).toBe(400);
      expect((await mailsTo(user.email)).map((m) => m.subject)).toContainEqual(expect.stringMatching(/^Pesanan Dalam Pengiriman/));

      const again = await cli("orders:ship", String(orderId), ...SHIPPING);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(new RegExp(`^order ${orderId}: Status pesanan tidak dapat diubah\\.`));
      expect((await cli("orders:ship", "nope")).code).toBe(2);

      const listed = await cli("orders:list", "--status", "400");
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`^${orderId}\\s+INV/`, "m"));

      await db.transaction((tx) => creditOrderReward(tx, orderId, user.id, { amount: 10_000_000, rule: BUILT_IN_REWARD_RULE }));
      expect(await cli("balance:withdraw", user.email, "100001")).toMatchObject({
        code: 1,
        stderr: `${user.email}: Saldo tidak mencukupi. Saldo saat ini Rp100.000.`,
      });
      const withdrawn = await cli("balance:withdraw", user.email, "100000");
      expect(withdrawn.code).toBe(0);
      const id = withdrawn.stdout.match(/^withdrawal (\d+):/)![1]!;
      expect(await cli("balance:settle", id, "ok")).toEqual({ code: 0, stdout: `withdrawal ${id}: Berhasil`, stderr: "" });
      expect(await getBalance(user.id)).toBe(0);
    },
    240_000,
  ); // seven CLI processes, each starting tsx

  it.skipIf(!!process.env.DATABASE_URL)("malformed requests on the socket get an answer, never a crash", async () => {
    const reply = await sendOpsCommand(opsSocketPath(env().dataDir), ["orders:list", "--status", "302"]);
    expect(reply.code).toBe(0);
    const net = await import("node:net");
    const raw = await new Promise<string>((resolve, reject) => {
      const conn = net.createConnection(opsSocketPath(env().dataDir));
      let got = "";
      conn.on("connect", () => conn.write('{"argv": "orders:ship 1"}\n'));
      conn.on("data", (d) => void (got += d));
      conn.on("end", () => resolve(got));
      conn.on("error", reject);
    });
    expect(JSON.parse(raw)).toMatchObject({ code: 2, err: [expect.stringMatching(/^bad request/)] });
  });

  it.skipIf(!!process.env.DATABASE_URL)(
    "without the socket, the CLI refuses with the lock's message instead of opening the database",
    async () => {
      await channel?.close();
      channel = undefined;
      const refused = await cli("orders:list");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(
          `^The database in ${env().dataDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is in use by the store server \\(pid ${process.pid}, since `,
        ),
      );
    },
    60_000,
  );
});
