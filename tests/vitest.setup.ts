import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, vi } from "vitest";
import { databaseState } from "~/.server/db/open-state";
import { log } from "~/.server/log";
import { wantMessageWorkers } from "~/.server/store/messages/worker-request";
// @ts-expect-error: plain JavaScript module without types
import { TEST_DATA_ENCRYPTION_KEY } from "../scripts/lib.mjs";

// Each test file gets its own PGlite data directory (unless DATABASE_URL points at a PostgreSQL
// server, as in CI's second run), and mail goes to that directory's outbox.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-test-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "test";
// The NIK and the uploads are encrypted at rest (issue 35): the tests' databases under a fixed key.
process.env.DATA_ENCRYPTION_KEY ??= TEST_DATA_ENCRYPTION_KEY;
delete process.env.SMTP_URL;
delete process.env.DEMO_DATA;
// A failed message is tried again after a second, not a minute (the retry tests wait for it).
process.env.MESSAGE_RETRY_SECONDS ??= "1";

// On PostgreSQL each worker has a database of its own, a copy of the one the global setup migrated:
// the files of one worker run one after another, so a file that counts orders sees only its own
// worker's, while the two workers run side by side.
if (process.env.DATABASE_URL && process.env.VITEST_POOL_ID) {
  const { default: postgres } = await import("postgres");
  const template = new URL(process.env.DATABASE_URL);
  const own = new URL(template);
  own.pathname = `${template.pathname}_w${process.env.VITEST_POOL_ID}`;
  // Connected to the server's own database: a template must have no session open while it is copied.
  const maintenance = new URL(template);
  maintenance.pathname = "/postgres";
  const admin = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
  try {
    const name = own.pathname.slice(1);
    const [found] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!found) await admin.unsafe(`create database "${name}" template "${template.pathname.slice(1)}"`);
  } finally {
    await admin.end();
  }
  process.env.DATABASE_URL = own.toString();
}

// The message queue's workers run in the tests as in the server: an e-mail arrives in the outbox a
// moment after the change that sends it (tests wait for it with waitForOutbox, never a fixed sleep).
// Asked for here, started with the database: a file that never opens it loads neither the queue nor
// the store (issue 44).
wantMessageWorkers();

// console.error or an error logged by the server's logger in a test is a failure: it means
// something went wrong that no assertion saw.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args));
  vi.spyOn(log, "error").mockImplementation(((...args: unknown[]) => void errors.push(args)) as never);
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length) throw new Error(`console.error was called: ${errors.map((a) => a.map(String).join(" ")).join("\n")}`);
});

afterAll(async () => {
  if (databaseState.opened) {
    const { closeDb } = await import("~/.server/db/client");
    await closeDb();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});
