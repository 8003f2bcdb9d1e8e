import type { PgliteDatabase } from "drizzle-orm/pglite";
import type * as schema from "./schema";

/**
 * The store's database: PGlite (embedded PostgreSQL, files in DATA_DIR) by default, a PostgreSQL
 * server when DATABASE_URL is set. Both speak the same SQL and run the same migrations; the rest of
 * the code sees one Drizzle type.
 */
export type Db = PgliteDatabase<typeof schema>;

/**
 * A database or an open transaction. Store functions that run inside another's transaction take
 * one: on PGlite (one connection) a query outside the open transaction would wait for it forever.
 */
export type Executor = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];
