import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// With DATABASE_URL (CI's PostgreSQL run), migrate once before the test files run in parallel, so
// they never race to create the same tables. On PGlite, write the prepared first-start database once
// (migrations and reference data, including the 83,762 villages): every test file's fresh database
// is then a copy of it instead of loading the areas again (about 30 s each on this machine).
export default async function setup() {
  if (process.env.DATABASE_URL) {
    const { openDatabase } = await import("../app/.server/db/client");
    const handle = await openDatabase({ url: process.env.DATABASE_URL });
    await handle.close();
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-test-template-"));
  process.env.DB_TEMPLATE_DIR = dir;
  // The job queue registers itself with the database: the template then holds its schema and queues.
  await import("../app/.server/store/messages");
  const { writeDatabaseTemplate } = await import("../app/.server/db/client");
  // Uncompressed: each test file's copy is then a plain copy, not 84 MB inflated (1.7 s a file).
  await writeDatabaseTemplate(dir, { compress: false });
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
