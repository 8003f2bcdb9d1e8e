// Operator CLI: `npm run ops -- <command> [arguments]` (`npm run ops -- help` lists the commands).
// Every command goes through the same store functions as the app (app/.server/ops/commands.ts).
// Where it runs:
//   - DATABASE_URL set: against that PostgreSQL directly, also while servers run;
//   - PGlite (DATA_DIR, default ./data) with the store server running: the server holds the data
//     directory's lock, so the command goes over the server's socket DATA_DIR/ops.sock and runs
//     inside the server;
//   - PGlite with nothing running: the CLI opens the database itself (taking the lock).
// Exit status: 0 done, 1 refused or failed (one-line reason on stderr), 2 bad usage.
import fs from "node:fs";
import path from "node:path";
import { closeDb } from "~/.server/db/client";
import { DataDirLockedError, liveLockOwner, setLockRole } from "~/.server/db/data-dir-lock";
import { env } from "~/.server/env";
import { opsSocketPath, sendOpsCommand } from "~/.server/ops/channel";
import { opsConfigurationMessage } from "~/.server/ops/key-hint";
import { runOpsCommand, type OpsIO } from "~/.server/ops/commands";

const io: OpsIO = { out: (line) => console.log(line), err: (line) => console.error(line) };

async function main(argv: string[]): Promise<number> {
  let config;
  try {
    config = env();
  } catch (error) {
    for (const line of opsConfigurationMessage(error instanceof Error ? error.message : String(error))) io.err(line);
    return 1;
  }
  const [name] = argv;
  if (!name || name === "help" || name === "--help") return runOpsCommand(argv, io);
  // A file is named from where the CLI runs; the server (over the socket) runs elsewhere.
  if ((name === "db:backup" || name === "db:restore") && argv[1]) argv = [name, path.resolve(argv[1]), ...argv.slice(2)];

  if (!config.databaseUrl) {
    const owner = liveLockOwner(config.dataDir);
    if (owner) {
      const socket = opsSocketPath(config.dataDir);
      if (owner.role !== "server" || !fs.existsSync(socket)) {
        io.err(new DataDirLockedError(config.dataDir, owner).message);
        return 1;
      }
      try {
        const reply = await sendOpsCommand(socket, argv);
        for (const line of reply.out) io.out(line);
        for (const line of reply.err) io.err(line);
        return reply.code;
      } catch (error) {
        io.err(
          `Could not reach the server (pid ${owner.pid}) through ${socket}: ${error instanceof Error ? error.message : String(error)}`,
        );
        return 1;
      }
    }
  }

  setLockRole("ops");
  try {
    return await runOpsCommand(argv, io);
  } finally {
    await closeDb().catch(() => {});
  }
}

process.exitCode = await main(process.argv.slice(2));
