import type { ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, test } from "vitest";
// @ts-expect-error: plain JavaScript module without types
import { spawnServer } from "../../../scripts/lib.mjs";
import { ORDER_STATUSES, PAYMENT_METHODS, PLN_GROUP_COMPANIES } from "./reference-data";

// Issue 16 item 10: a two-replica deployment's first rollout starts its instances at the same
// moment on an empty PostgreSQL. Four production servers (the build's server.js) on a database this
// test creates must all come up, and the reference data must be there once. Only on PostgreSQL
// (.ci/run's second step); PGlite has one process per data directory.
const adminUrl = process.env.DATABASE_URL;
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitForHealthy(port: number, child: ChildProcess, output: () => string, deadline: number) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance on port ${port} exited with ${child.exitCode}:\n${output()}`);
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`instance on port ${port} not healthy in time:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(!adminUrl)("several instances on one PostgreSQL", () => {
  const database = `store_instances_${crypto.randomBytes(4).toString("hex")}`;
  const admin = adminUrl ? postgres(adminUrl, { max: 1, onnotice: () => {} }) : undefined!;
  const children: ChildProcess[] = [];
  // Made in the test (a describe that is skipped runs no afterAll to remove it).
  let dataDir = "";

  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => (child.exitCode !== null ? resolve(null) : (child.once("exit", resolve), child.kill("SIGKILL")))),
      ),
    );
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test(
    "four instances started at once on an empty database all serve, and each reference row exists once",
    { timeout: 180_000 },
    async () => {
      if (!fs.existsSync(path.join(buildDir, "server/index.js")))
        throw new Error(`no build in ${buildDir}: run \`npx react-router build\` first`);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-instances-"));
      await admin.unsafe(`create database ${database}`);
      const url = new URL(adminUrl!);
      url.pathname = `/${database}`;

      const ports = await Promise.all([1, 2, 3, 4].map(() => freePort()));
      const outputs = ports.map(() => "");
      ports.forEach((port, i) => {
        const child: ChildProcess = spawnServer({
          PORT: String(port),
          DATABASE_URL: url.toString(),
          DATA_DIR: path.join(dataDir, String(i)),
          BUILD_DIR: buildDir,
          PAYMENT_GATEWAY: "sandbox",
          SESSION_SECRET: "several-instances-test-secret",
          PAYMENT_WEBHOOK_SECRET: "several-instances-webhook-secret",
          LOG_LEVEL: "warn",
        });
        child.stdout!.on("data", (chunk) => (outputs[i] += chunk));
        child.stderr!.on("data", (chunk) => (outputs[i] += chunk));
        children.push(child);
      });
      const deadline = Date.now() + 150_000;
      await Promise.all(ports.map((port, i) => waitForHealthy(port, children[i]!, () => outputs[i]!, deadline)));

      const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        const count = async (table: string) => Number((await db.unsafe(`select count(*)::int as n from ${table}`))[0]!.n);
        expect(await count("companies")).toBe(PLN_GROUP_COMPANIES.length);
        expect(await count("order_statuses")).toBe(ORDER_STATUSES.length);
        expect(await count("payment_methods")).toBe(PAYMENT_METHODS.length);
        expect(await count("drizzle.__drizzle_migrations")).toBe(
          JSON.parse(fs.readFileSync("app/.server/db/migrations/meta/_journal.json", "utf8")).entries.length,
        );
        for (const table of ["provinces", "regencies", "districts", "villages"]) {
          const [{ rows, codes }] = await db.unsafe(`select count(*)::int as rows, count(distinct code)::int as codes from ${table}`);
          expect(rows, table).toBeGreaterThan(0);
          expect(rows, table).toBe(codes);
        }

        // Issue 26 item 9: a catalogue write (its row and the version bump in one transaction, as
        // store/catalogue/version.ts's catalogueWrite does) shows on every instance within 2 s, though
        // each had just cached the empty catalogue (its cache lives 30 s).
        const titles = async (port: number) => {
          const body = (await (await fetch(`http://127.0.0.1:${port}/api/core/api/v1/product/page?page=0&size=10`)).json()) as {
            data: { content: { title: string }[] };
          };
          return body.data.content.map((p) => p.title);
        };
        for (const port of ports) expect(await titles(port)).toEqual([]);
        await db.begin(async (tx) => {
          await tx.unsafe(
            `insert into products (sku, title, price, stock, status) values ('instances-1', 'Motor Listrik Antar Instans', 20000000, 5, 'tayang')`,
          );
          await tx.unsafe(`update catalogue_version set version = version + 1 where id = 1`);
        });
        const written = Date.now();
        await Promise.all(
          ports.map(async (port) => {
            while (!(await titles(port)).includes("Motor Listrik Antar Instans")) {
              expect(Date.now() - written, `port ${port}`).toBeLessThan(2_000);
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }),
        );
        console.log(`[instances] a catalogue write seen by all ${ports.length} instances after ${Date.now() - written} ms`);
      } finally {
        await db.end();
      }
    },
  );
});
