import type { SQL } from "drizzle-orm";
import type { Db } from "./types";

/**
 * Rows of a raw `db.execute(sql…)`: PGlite answers `{ rows }`, postgres-js a plain array. Store code
 * that needs raw SQL reads its rows through this so it runs on both engines (also inside a transaction).
 */
export async function queryRows<Row>(db: Pick<Db, "execute">, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}
