// Starts the production server for the Midtrans e2e run (playwright.midtrans.config.ts): first a
// fake Midtrans (tests/fakes/midtrans.ts, run by Node 24's TypeScript support) on a free port, then
// the store with PAYMENT_GATEWAY=midtrans pointed at it, through scripts/e2e-server.mjs (fresh
// DATA_DIR under /tmp). The fake's address goes to MIDTRANS_FAKE_URL_FILE for the specs.
import fs from "node:fs";
import { startFakeMidtrans } from "../tests/fakes/midtrans.ts";

const serverKey = process.env.MIDTRANS_SERVER_KEY;
if (!serverKey) {
  console.error("e2e-midtrans-server: MIDTRANS_SERVER_KEY must be set");
  process.exit(1);
}
const fake = await startFakeMidtrans({ serverKey, notificationUrl: `${process.env.APP_URL}/webhooks/midtrans` });
Object.assign(process.env, { PAYMENT_GATEWAY: "midtrans", MIDTRANS_API_URL: fake.url, MIDTRANS_SNAP_URL: fake.url });
if (process.env.MIDTRANS_FAKE_URL_FILE) fs.writeFileSync(process.env.MIDTRANS_FAKE_URL_FILE, fake.url);
process.once("SIGTERM", () => void fake.close());

await import("./e2e-server.mjs");
