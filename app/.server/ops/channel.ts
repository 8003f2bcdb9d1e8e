import fs from "node:fs";
import net from "node:net";
import { opsSocketPath, type OpsReply } from "./channel-client";
import { runOpsCommand } from "./commands";
import { log } from "../log";

export { answerWithinMs, opsSocketPath, SOCKET_FILE, sendOpsCommand, type OpsReply } from "./channel-client";

// The running server's local command channel for the ops CLI (PGlite allows one process per data
// directory, so the CLI cannot open it while the server runs). A Unix socket inside DATA_DIR, mode
// 0600: only the server's own user (and root) can connect. One request per connection: a JSON line
// {"argv": [...]}; one JSON line back {"code", "out": [...], "err": [...]}.

const MAX_REQUEST_BYTES = 16 * 1024;
const MAX_ARGS = 16;
const REQUEST_TIMEOUT_MS = 10_000;

function parseRequest(line: string): string[] | null {
  try {
    const value = JSON.parse(line) as { argv?: unknown };
    const argv = value.argv;
    if (!Array.isArray(argv) || argv.length > MAX_ARGS || !argv.every((a) => typeof a === "string" && a.length <= 1000)) return null;
    return argv as string[];
  } catch {
    return null;
  }
}

/** Listens on DATA_DIR/ops.sock (the caller holds the data directory's lock, so an old socket file is stale). */
export async function startOpsChannel(dataDir: string): Promise<{ path: string; close: () => Promise<void> }> {
  const socketPath = opsSocketPath(dataDir);
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((conn) => {
    let buffered = "";
    let handled = false;
    conn.setEncoding("utf8");
    conn.setTimeout(REQUEST_TIMEOUT_MS, () => conn.destroy());
    conn.on("error", () => {}); // a client that went away: nothing to answer
    conn.on("data", (chunk: string) => {
      if (handled) return;
      buffered += chunk;
      if (buffered.length > MAX_REQUEST_BYTES) {
        handled = true;
        conn.end(`${JSON.stringify({ code: 2, out: [], err: ["request too large"] } satisfies OpsReply)}\n`);
        return;
      }
      const newline = buffered.indexOf("\n");
      if (newline < 0) return;
      handled = true;
      conn.setTimeout(0); // the command itself may take a while (a long sweep)
      const argv = parseRequest(buffered.slice(0, newline));
      void answer(argv).then((reply) => {
        // The command's name only: its arguments may be e-mails or amounts.
        log.info({ command: argv?.[0] ?? "(bad request)", exitCode: reply.code }, "ops command");
        if (!conn.destroyed) conn.end(`${JSON.stringify(reply)}\n`);
      });
    });
  });

  // Created with mode 0600 from the start (umask), not only chmod-ed after: no window for others.
  const umask = process.umask(0o177);
  try {
    server.listen(socketPath);
  } finally {
    process.umask(umask);
  }
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  fs.chmodSync(socketPath, 0o600);

  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

async function answer(argv: string[] | null): Promise<OpsReply> {
  if (!argv) return { code: 2, out: [], err: ['bad request: expected one JSON line {"argv": [...]}'] };
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOpsCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}
