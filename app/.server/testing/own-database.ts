import { afterAll, beforeAll } from "vitest";
import { useOwnPostgresDatabase } from "./fixtures";

/**
 * This test file on a database of its own when the tests run on a shared PostgreSQL
 * (useOwnPostgresDatabase), dropped after its tests. Call it at the top of the file, before the
 * file's own beforeAll opens the database. For the tests only (it registers vitest hooks).
 */
export function ownDatabaseForThisFile() {
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    drop = await useOwnPostgresDatabase();
  }, 300_000);
  afterAll(async () => {
    await drop?.();
  });
}
