import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error: plain JavaScript module without types
import { TEST_DATA_ENCRYPTION_KEY } from "../lib.mjs";

// What the in-process benchmarks (bench:export, bench:import, bench:dashboard, bench:roster) share: their command-line counts and
// a fresh PGlite store in a temporary directory, set up before the store's modules are imported.

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `--name N` from the command line (a positive whole number), else `fallback`. */
export function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

/**
 * Points the store at a new temporary DATA_DIR (PGlite, production mode, no demo data, no mail
 * server), starting from the build's prepared database when there is one. Returns the directory.
 */
export function useTemporaryPglite(prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.env.DATA_DIR = dataDir;
  process.env.NODE_ENV = "production";
  // Production names its gateway (issue 25); the benches pay in the sandbox.
  process.env.PAYMENT_GATEWAY = "sandbox";
  // Production requires it (issue 35); the bench's database is thrown away.
  process.env.DATA_ENCRYPTION_KEY ||= TEST_DATA_ENCRYPTION_KEY;
  delete process.env.DATABASE_URL;
  delete process.env.DEMO_DATA;
  delete process.env.SMTP_URL;
  const template = path.join(root, process.env.BUILD_DIR ?? "build", "server", "assets", "db-template");
  if (!process.env.DB_TEMPLATE_DIR && fs.existsSync(path.join(template, "PG_VERSION.gz"))) process.env.DB_TEMPLATE_DIR = template;
  return dataDir;
}

/**
 * Samples the resident memory every 20 ms from now on (after a garbage collection and a pause, so
 * the starting figure is settled). `stop()` ends the sampling and returns the growth to the peak, in MB.
 */
export async function sampleRss(): Promise<{ before: number; peak: () => number; stop: () => number }> {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const before = process.memoryUsage().rss;
  let peak = before;
  const note = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const sampler = setInterval(note, 20);
  return {
    before,
    peak: () => (note(), peak),
    stop: () => {
      clearInterval(sampler);
      note();
      return Math.round(((peak - before) / 1024 / 1024) * 10) / 10;
    },
  };
}
