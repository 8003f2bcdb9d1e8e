import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { companies, searchHistory, users } from "../../db/schema";
import { eq } from "drizzle-orm";
import {
  cleanHistory,
  clearSearchHistory,
  HISTORY_SIZE,
  listSearchHistory,
  mergeSearchHistory,
  pushKeyword,
  recordSearch,
} from "./search-history";

// Works on a shared PostgreSQL too: every test uses users of its own, never assumes empty tables.
let companyId: number;

beforeAll(async () => {
  const db = await getDb();
  const [company] = await db.select({ id: companies.id }).from(companies).limit(1);
  companyId = company!.id;
});

async function freshUser(): Promise<number> {
  const db = await getDb();
  const tag = crypto.randomUUID();
  const [user] = await db
    .insert(users)
    .values({
      fullname: "Penguji Riwayat",
      username: tag,
      email: `${tag}@example.test`,
      phoneNo: "081234567890",
      nip: "1234567890",
      companyId,
      passwordHash: "-",
    })
    .returning({ id: users.id });
  return user!.id;
}

describe("search history in the database", () => {
  it("starts empty and shows the latest 5 newest first", async () => {
    const userId = await freshUser();
    expect(await listSearchHistory(userId)).toEqual([]);
    for (const keyword of ["motor", "mobil", "kompor", "sepeda", "panel surya", "charger"]) await recordSearch(userId, keyword);
    expect(await listSearchHistory(userId)).toEqual(["charger", "panel surya", "sepeda", "kompor", "mobil"]);
  });

  it("moves a keyword searched again to the top without duplicating it, case-insensitively", async () => {
    const userId = await freshUser();
    for (const keyword of ["motor", "mobil", "kompor"]) await recordSearch(userId, keyword);
    const history = await recordSearch(userId, "  MOTOR ");
    expect(history).toEqual(["MOTOR", "kompor", "mobil"]);
    expect(await listSearchHistory(userId)).toEqual(history);
  });

  it("keeps no more rows than it shows", async () => {
    const userId = await freshUser();
    for (let i = 0; i < 12; i++) await recordSearch(userId, `produk ${i}`);
    const db = await getDb();
    const rows = await db.select().from(searchHistory).where(eq(searchHistory.userId, userId));
    expect(rows).toHaveLength(HISTORY_SIZE);
  });

  it("ignores an empty keyword and cuts a 10 KB one", async () => {
    const userId = await freshUser();
    await recordSearch(userId, "   ");
    expect(await listSearchHistory(userId)).toEqual([]);
    await recordSearch(userId, "x".repeat(10_000));
    const [stored] = await listSearchHistory(userId);
    expect(stored).toBe("x".repeat(100));
  });

  it("'Hapus Semua' empties one user's history and nobody else's", async () => {
    const alice = await freshUser();
    const budi = await freshUser();
    await recordSearch(alice, "motor");
    await recordSearch(budi, "mobil");
    await clearSearchHistory(alice);
    expect(await listSearchHistory(alice)).toEqual([]);
    expect(await listSearchHistory(budi)).toEqual(["mobil"]);
  });

  it("survives the same keyword recorded at the same moment", async () => {
    const userId = await freshUser();
    await Promise.all([recordSearch(userId, "motor"), recordSearch(userId, "Motor"), recordSearch(userId, "motor")]);
    const history = await listSearchHistory(userId);
    expect(history).toHaveLength(1);
    expect(history[0]!.toLowerCase()).toBe("motor");
  });

  it("merges a guest's history after login: the guest's searches on top, no duplicates", async () => {
    const userId = await freshUser();
    for (const keyword of ["kompor", "motor"]) await recordSearch(userId, keyword);
    const merged = await mergeSearchHistory(userId, ["sepeda", "MOTOR", "panel"]);
    expect(merged).toEqual(["sepeda", "panel", "motor", "kompor"]);
  });
});

describe("search history as a list (the guest's cookie)", () => {
  it("puts a keyword on top, de-duplicates case-insensitively and keeps 5", () => {
    let history: string[] = [];
    for (const keyword of ["a", "b", "c", "d", "e", "f"]) history = pushKeyword(history, keyword);
    expect(history).toEqual(["f", "e", "d", "c", "b"]);
    expect(pushKeyword(history, "C")).toEqual(["C", "f", "e", "d", "b"]);
    expect(pushKeyword(history, " ")).toEqual(history);
  });

  it("turns whatever a cookie held into a valid history", () => {
    expect(cleanHistory(null)).toEqual([]);
    expect(cleanHistory({ 0: "a" })).toEqual([]);
    expect(cleanHistory(["a", 1, "A", "", "b", ["c"], "c", "d", "e", "f"])).toEqual(["a", "b", "c", "d", "e"]);
    expect(cleanHistory(["y".repeat(5000)])).toEqual(["y".repeat(100)]);
  });
});
