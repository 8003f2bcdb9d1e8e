import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { buildOpenApi } from "./openapi.server";

// The OpenAPI document held to Redocly's recommended ruleset (issue 34): any error or warning fails.
// The CLI (a devDependency, bundled without further downloads) runs offline: no telemetry, no
// update check. Redocly flags a localhost or example.com server, so the document names a
// production-like address here, as a deployment's APP_URL would.

const run = promisify(execFile);
const CLI = path.resolve("node_modules/@redocly/cli/bin/cli.js");

type Problem = { ruleId: string; severity: string; message: string; location: { pointer: string }[] };

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("OpenAPI document", () => {
  it("passes redocly lint (recommended) with no error and no warning", { timeout: 60_000 }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
    const file = path.join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(buildOpenApi("https://toko-pegawai.pln.co.id")));
    // Exit code 1 on errors only; the JSON report lists warnings too, so it is read either way.
    const output = await run(process.execPath, [CLI, "lint", "--extends=recommended", "--format=json", file], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? "", stderr: error.stderr ?? "" }));
    const report = JSON.parse(output.stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ""})`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
