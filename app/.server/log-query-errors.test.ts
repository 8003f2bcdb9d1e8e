import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "./db/client";
import { users } from "./db/schema";
import { createLogger, errorField } from "./log";
import { ownDatabaseForThisFile } from "./testing/own-database";

// Issue 35 (review finding): a failing query's error carries its parameters ('params: …' in
// drizzle's message and stack; the value in some of PostgreSQL's own messages), so a roster edit
// with a 10-digit id logged the employee's name. What is logged of an error keeps the statement
// and PostgreSQL's reason, never a value the query was given.

vi.setConfig({ testTimeout: 120_000 });
ownDatabaseForThisFile();

const NAME = "Siti Rahmawati Uji";
const NIK = "3273015505900007";

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("the query did not fail");
}

describe("a failing query in the log", () => {
  it("is logged with its statement and reason, without its parameters", async () => {
    const db = await getDb();
    const failures = [
      await failure(() => db.update(users).set({ fullname: NAME, nip: NIK }).where(eq(users.id, 9_999_999_999))),
      await failure(() => db.execute(sql`select ${NIK}::int as n, ${NAME} as name`)),
      await failure(() => db.execute(sql`select cast(${`${NAME} ${NIK}`} as date)`)),
    ];
    const lines: string[] = [];
    const logger = createLogger({ level: "info", pretty: false }, { write: (line: string) => void lines.push(line) });
    for (const error of failures) logger.error({ err: errorField(error) }, "server error");
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain(NIK);
      expect(line).not.toContain(NAME);
      expect(line).not.toContain("9999999999");
    }
    expect(JSON.parse(lines[0]!).err.message).toMatch(/^Failed query: update "users"/);
  });
});
