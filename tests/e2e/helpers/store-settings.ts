import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The manual-transfer account is one setting of the whole store, and several specs (each in two
 * projects, on two workers) open manual-transfer payments on the same server. A spec that changes the
 * account for a moment, and a spec that asserts the default one on a new payment, both hold this
 * lock while they do, so neither sees the other's moment. A payment keeps the account it opened
 * with, so only the opening needs the lock.
 */
export async function holdingTransferAccount<T>(body: () => Promise<T>): Promise<T> {
  const lock = path.join(os.tmpdir(), `e2e-transfer-account-${process.env.PORT ?? "3456"}`);
  for (let waited = 0; ; waited += 250) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (waited > 120_000) throw new Error(`transfer-account lock ${lock} not released`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await body();
  } finally {
    fs.rmdirSync(lock);
  }
}
