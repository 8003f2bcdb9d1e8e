import net from "node:net";
import path from "node:path";

// The client side of the server's ops channel (channel.ts): what the CLI (scripts/ops.ts) sends, and
// what the e2e helpers send directly (tests/e2e/helpers/ops.ts) instead of starting the CLI for each
// command (issue 44). Node's own modules only: importing it loads nothing of the store.

export const SOCKET_FILE = "ops.sock";
export const opsSocketPath = (dataDir: string) => path.join(dataDir, SOCKET_FILE);

export type OpsReply = { code: number; out: string[]; err: string[] };

/**
 * How long the CLI waits for the server's answer. Most commands answer in seconds; two work through
 * the whole store while it serves, in small batches that give way to the requests (a key rotation of
 * 2,000 orders with their KTP photos took over two minutes under bench:load traffic, issue 35).
 */
const ANSWER_WITHIN_MS: Record<string, number> = { "data:rotate-key": 6 * 3600_000, "db:backup": 3600_000 };
export const answerWithinMs = (argv: string[]) => ANSWER_WITHIN_MS[argv[0] ?? ""] ?? 120_000;

/** The CLI side: sends one command line to the server's socket and returns its answer. */
export function sendOpsCommand(socketPath: string, argv: string[], timeoutMs = answerWithinMs(argv)): Promise<OpsReply> {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath);
    let received = "";
    conn.setEncoding("utf8");
    conn.setTimeout(timeoutMs, () => conn.destroy(new Error(`no answer from the server within ${timeoutMs / 1000} s`)));
    conn.on("connect", () => conn.write(`${JSON.stringify({ argv })}\n`));
    conn.on("data", (chunk: string) => void (received += chunk));
    conn.on("error", reject);
    conn.on("end", () => {
      try {
        const reply = JSON.parse(received.trim()) as OpsReply;
        resolve({ code: Number(reply.code), out: reply.out ?? [], err: reply.err ?? [] });
      } catch {
        reject(new Error("the server closed the connection without an answer"));
      }
    });
  });
}
