// The back-office benchmarks' database: a fresh PGlite in a temporary directory, started from the
// build's prepared database when there is one, as a production server would run (NODE_ENV
// production, no PostgreSQL, no SMTP). Call it before anything imports the database client.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Points the store at a new temporary data directory; returns it (remove it when done). */
export function useTemporaryDatabase(prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.env.DATA_DIR = dataDir;
  process.env.NODE_ENV = "production";
  delete process.env.DATABASE_URL;
  delete process.env.SMTP_URL;
  const template = path.join(root, process.env.BUILD_DIR ?? "build", "server", "assets", "db-template");
  if (!process.env.DB_TEMPLATE_DIR && fs.existsSync(path.join(template, "PG_VERSION.gz"))) process.env.DB_TEMPLATE_DIR = template;
  return dataDir;
}
