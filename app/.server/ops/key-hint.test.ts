import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// Issue 43 item 12: in production without DATA_ENCRYPTION_KEY the ops CLI refuses even
// users:grant-operator (it opens the database the key seals); the operator is told where the key is,
// not left with the server's one-line reason.

const run = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");

async function cli(env: Record<string, string>, ...argv: string[]) {
  try {
    const { stdout, stderr } = await run(tsx, ["scripts/ops.ts", ...argv], {
      env: { PATH: process.env.PATH ?? "", ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("the ops CLI without DATA_ENCRYPTION_KEY in production", () => {
  it("refuses users:grant-operator, says why, and where the server's key is found", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ops-key-"));
    try {
      const answer = await cli(
        { NODE_ENV: "production", PAYMENT_GATEWAY: "sandbox", DATA_DIR: dataDir },
        "users:grant-operator",
        "admin@example.test",
      );
      expect(answer.code).toBe(1);
      expect(answer.stdout).toBe("");
      const lines = answer.stderr.trim().split("\n");
      expect(lines[0]).toMatch(/^Invalid configuration: DATA_ENCRYPTION_KEY: must be set in production/);
      expect(answer.stderr).toContain("same DATA_ENCRYPTION_KEY the server runs with");
      expect(answer.stderr).toContain("docker exec <container> npm run ops -- <command>");
      expect(answer.stderr).toContain("docker compose exec store1 npm run ops -- <command>");
      expect(answer.stderr).toContain("kubectl exec deploy/toko -- npm run ops -- <command>");
      // Nothing was made in its place: no key file, no database.
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
