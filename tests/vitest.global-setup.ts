// With DATABASE_URL (CI's PostgreSQL run), migrate once before the test files run in parallel, so
// they never race to create the same tables.
export default async function setup() {
  if (!process.env.DATABASE_URL) return;
  const { openDatabase } = await import("../app/.server/db/client");
  const handle = await openDatabase({ url: process.env.DATABASE_URL });
  await handle.close();
}
