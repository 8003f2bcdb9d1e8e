import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, foreignServerGone, liveLockOwner, lockPath, setLockRole } from "./data-dir-lock";
import { openDatabase } from "./client";

// The lock alone (no PGlite): each case in its own directory.
const dirs: string[] = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  setLockRole("process");
});

/** A process that is alive for the test and then ends. */
function otherProcess() {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  return { pid: child.pid!, stop: () => child.kill("SIGKILL") };
}

function deadPid() {
  // Spawned and waited for: its pid is no longer a process (reuse within the test is not plausible).
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  return new Promise<number>((resolve) => child.on("exit", () => resolve(child.pid!)));
}

describe("data directory lock", () => {
  it("is taken with the pid and role, refused to a second taker, and gone after release", () => {
    const dir = tempDir();
    setLockRole("server");
    const release = acquireDataDirLock(dir);
    const written = JSON.parse(fs.readFileSync(lockPath(dir), "utf8"));
    expect(written).toMatchObject({ pid: process.pid, role: "server" });
    expect(fs.statSync(lockPath(dir)).mode & 0o777).toBe(0o600);
    // Even this same process may not open the directory twice.
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    release();
    expect(fs.existsSync(lockPath(dir))).toBe(false);
    acquireDataDirLock(dir)();
  });

  it("held by another live process: a clear message naming it, and the lock stays theirs", async () => {
    const dir = tempDir();
    const other = otherProcess();
    try {
      const theirs = JSON.stringify({ pid: other.pid, role: "ops", since: "2026-11-23T08:00:00.000Z", procStart: null });
      fs.writeFileSync(lockPath(dir), theirs);
      expect(liveLockOwner(dir)).toMatchObject({ pid: other.pid, role: "ops" });
      expect(() => acquireDataDirLock(dir)).toThrow(
        `The database in ${dir} is in use by an ops command (pid ${other.pid}, since 2026-11-23T08:00:00.000Z). PGlite allows one process at a time`,
      );
      expect(fs.readFileSync(lockPath(dir), "utf8")).toBe(theirs);
      // openDatabase refuses before PGlite touches the files.
      await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);
      expect(fs.existsSync(path.join(dir, "pglite"))).toBe(false);
    } finally {
      other.stop();
    }
  });

  it("left by a dead process (kill -9), by this pid in an earlier life, by a reused pid, or unreadable: taken over", async () => {
    const dir = tempDir();
    const stale = [
      { pid: await deadPid(), role: "server", since: "x", procStart: null },
      { pid: process.pid, role: "server", since: "x", procStart: null },
      // A live pid, but its process started at another moment than the lock's owner did.
      { pid: process.ppid, role: "server", since: "x", procStart: "1" },
    ];
    for (const owner of stale) {
      fs.writeFileSync(lockPath(dir), JSON.stringify(owner));
      expect(liveLockOwner(dir)).toBeNull();
      const release = acquireDataDirLock(dir);
      expect(JSON.parse(fs.readFileSync(lockPath(dir), "utf8")).pid).toBe(process.pid);
      release();
    }
    fs.writeFileSync(lockPath(dir), "garbage");
    acquireDataDirLock(dir)();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("written on another host (a container sharing the volume): live, unless it is a server whose socket is dead", async () => {
    const dir = tempDir();
    fs.writeFileSync(lockPath(dir), JSON.stringify({ pid: 1, role: "ops", since: "x", procStart: null, host: "other-container" }));
    expect(liveLockOwner(dir)).toMatchObject({ host: "other-container" });
    expect(() => acquireDataDirLock(dir)).toThrow(`(pid 1 on host other-container, since x)`);
    expect(() => acquireDataDirLock(dir)).toThrow(`If that process is certainly gone, delete ${lockPath(dir)}.`);
    expect(await foreignServerGone(dir)).toBe(false); // not a server: no way to tell

    fs.writeFileSync(lockPath(dir), JSON.stringify({ pid: 1, role: "server", since: "x", procStart: null, host: "other-container" }));
    const socket = net.createServer().listen(path.join(dir, "ops.sock"));
    await new Promise((resolve) => socket.once("listening", resolve));
    expect(await foreignServerGone(dir)).toBe(false); // its socket answers: that server runs
    await new Promise((resolve) => socket.close(resolve));
    expect(await foreignServerGone(dir)).toBe(true);
    acquireDataDirLock(dir, { foreignHolderGone: true })();
  });
});
