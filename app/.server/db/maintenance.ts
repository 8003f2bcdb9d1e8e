import { sql } from "drizzle-orm";
import { env } from "../env";
import { getDb } from "./client";

// PGlite runs PostgreSQL in single-user mode: no autovacuum ever runs. Without VACUUM the tables'
// visibility maps stay empty, so every count of the back office reads the table's pages instead of
// only the index (an index-only scan needs all-visible pages), and the space of the rows each status
// change leaves behind is never reused. The server runs this every hour (the `db-maintenance`
// scheduled job, entry.server.tsx): VACUUM skips the pages still all-visible since its last run, so
// an hour's changes cost little. PostgreSQL's own autovacuum does the same there: nothing to do.

/** The job's schedule: once an hour, at minute 17 (away from the hour's other work). */
export const MAINTENANCE_CRON = "17 * * * *";

export type MaintenanceResult = { vacuumed: boolean; ms: number };

/** VACUUM (ANALYZE) of the whole PGlite database; on PostgreSQL nothing (autovacuum does it). */
export async function vacuumEmbeddedDatabase(): Promise<MaintenanceResult> {
  if (env().databaseUrl) return { vacuumed: false, ms: 0 };
  const started = performance.now();
  await (await getDb()).execute(sql`vacuum (analyze)`);
  return { vacuumed: true, ms: Math.round(performance.now() - started) };
}
