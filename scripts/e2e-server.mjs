// Starts the production server for Playwright on a FRESH database: wipes DATA_DIR first, so every
// e2e run begins from the same reference and demo data. Refuses to wipe anything outside /tmp.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(os.tmpdir(), `store-e2e-${process.env.PORT ?? 3456}`));
const tmp = path.resolve(os.tmpdir());
if (!dataDir.startsWith(tmp + path.sep)) {
  console.error(`e2e-server: DATA_DIR must be under ${tmp}, got ${dataDir}`);
  process.exit(1);
}
fs.rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV ??= "production";
process.env.DEMO_DATA ??= "1";

await import("../server.js");
