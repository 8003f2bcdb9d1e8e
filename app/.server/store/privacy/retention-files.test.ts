import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { csvImports } from "../../db/schema";
import { env } from "../../env";
import { createVerifiedUser } from "../../testing/fixtures";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { forgetAppliedImportFiles, markCsvImportApplied, stageCsvImport } from "../back-office";
import { OUTBOX_KEEP_DAYS, pruneOutbox } from "../messages";

// Issue 35 item 3, the files kept only as long as needed: an applied import keeps its summary, not
// the file (names, NIPs); the demo outbox keeps a message OUTBOX_KEEP_DAYS days.

ownDatabaseForThisFile();

describe("files kept only as long as needed", () => {
  it("an applied import keeps its summary and loses its file; files applied before this version are emptied by the retention job", async () => {
    const db = await getDb();
    const operator = await createVerifiedUser(db);
    const roster = "nip,nama,perusahaan,status\n7001,Dewi Lestari,PT Uji,aktif\n";
    const applied = await stageCsvImport("pegawai", operator.id, "pegawai.csv", roster);
    const waiting = await stageCsvImport("pegawai", operator.id, "pegawai.csv", roster);
    expect(await markCsvImportApplied(applied, "1 ditambah, 0 diubah, 0 dinonaktifkan (PT Uji)")).toBe(true);
    const row = async (id: string) => (await db.select().from(csvImports).where(eq(csvImports.id, id)))[0]!;
    expect(await row(applied)).toMatchObject({ content: "", summary: "1 ditambah, 0 diubah, 0 dinonaktifkan (PT Uji)" });
    // Not yet applied: the preview still needs the file.
    expect((await row(waiting)).content).toBe(roster);

    // An older version kept the file after the apply.
    await db.update(csvImports).set({ appliedAt: new Date(), content: roster }).where(eq(csvImports.id, waiting));
    expect(await forgetAppliedImportFiles()).toBeGreaterThanOrEqual(1);
    expect((await row(waiting)).content).toBe("");
    expect(await forgetAppliedImportFiles()).toBe(0);
  });

  it(`the outbox keeps a message ${OUTBOX_KEEP_DAYS} days, then the retention job deletes it`, async () => {
    const dir = path.join(env().dataDir, "outbox");
    await fs.mkdir(dir, { recursive: true });
    const old = path.join(dir, "old-message-for-retention.json");
    const recent = path.join(dir, "recent-message-for-retention.json");
    await fs.writeFile(old, "{}");
    await fs.writeFile(recent, "{}");
    const now = new Date();
    const eightDaysAgo = new Date(now.getTime() - (OUTBOX_KEEP_DAYS + 1) * 86_400_000);
    await fs.utimes(old, eightDaysAgo, eightDaysAgo);
    expect(await pruneOutbox(now)).toBeGreaterThanOrEqual(1);
    await expect(fs.stat(old)).rejects.toThrow();
    expect((await fs.stat(recent)).isFile()).toBe(true);
    await fs.rm(recent);
  });
});
