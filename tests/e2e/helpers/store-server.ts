/**
 * Production servers of a spec's own (operations, backups): started on a free port with a fresh
 * DATA_DIR under /tmp, their output kept for the spec to read; and the ops CLI run against a DATA_DIR.
 */
import { type ChildProcess, execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "@playwright/test";
import { opsSocketPath, sendOpsCommand } from "../../../app/.server/ops/channel-client";
// @ts-expect-error: plain JavaScript module without types
import { spawnServer } from "../../../scripts/lib.mjs";

export type StoreServer = { url: string; child: ChildProcess; output: () => string; dataDir: string };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export const newDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "store-e2e-own-"));

/** Starts server.js (demo data, LOG_LEVEL=debug) and waits until /readyz answers 200. */
export async function startStore(env: Record<string, string> = {}, dataDir = newDataDir()): Promise<StoreServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    BUILD_DIR: process.env.BUILD_DIR ?? "build",
    DEMO_DATA: "1",
    STORE_TEST_DOOR: "1",
    PAYMENT_GATEWAY: "sandbox",
    APP_URL: url,
    TRUST_PROXY: "1",
    OUTBOX_KEY: process.env.OUTBOX_KEY!,
    LOG_LEVEL: "debug",
    ...env,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await expect
    .poll(
      async () =>
        child.exitCode !== null
          ? -1
          : await fetch(`${url}/readyz`).then(
              (r) => r.status,
              () => 0,
            ),
      // Generous: a busy machine (several stores starting with their demo data at once) takes its time.
      { timeout: 240_000, message: "the server is ready" },
    )
    .toBe(200);
  return { url, child, output: () => output, dataDir };
}

/** Stops the server (SIGINT: no drain) and waits for it to exit. */
export async function stopStore(server: StoreServer, options: { removeData?: boolean } = {}) {
  if (server.child.exitCode === null) {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGINT");
    await exited;
  }
  if (options.removeData !== false) fs.rmSync(server.dataDir, { recursive: true, force: true });
}

type OpsResult = { code: number; out: string; err: string };

/**
 * A command sent to the server running on `dataDir` over its socket, as scripts/ops.ts sends it (a
 * file argument of db:backup / db:restore resolved here, where the CLI would resolve it), with the
 * exit code and the output the CLI would print.
 */
export async function opsOverSocket(dataDir: string, args: string[]): Promise<OpsResult> {
  const argv = (args[0] === "db:backup" || args[0] === "db:restore") && args[1] ? [args[0], path.resolve(args[1]), ...args.slice(2)] : args;
  const reply = await sendOpsCommand(opsSocketPath(dataDir), argv);
  const lines = (list: string[]) => list.map((line) => `${line}\n`).join("");
  return { code: reply.code, out: lines(reply.out), err: lines(reply.err) };
}

/**
 * The real CLI, `npm run ops -- …` with DATA_DIR (over the server's socket when one runs there): exit
 * code and output. For the specs about the CLI itself (backup.spec.ts); a spec that only needs a
 * command done sends it with opsOverSocket (or purchase.ts ops()), without starting the CLI.
 */
export async function runOps(dataDir: string, args: string[]): Promise<OpsResult> {
  const tsx = path.resolve("node_modules/.bin/tsx");
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, ["scripts/ops.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, out: failed.stdout ?? "", err: failed.stderr ?? "" };
  }
}
