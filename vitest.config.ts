import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts"],
    environment: "node",
    setupFiles: ["./tests/vitest.setup.ts"],
    globalSetup: ["./tests/vitest.global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Argon2 and PGlite are CPU-bound; two workers match the two cores CI has.
    maxWorkers: 2,
    // The console's report, and a JSON one per engine for scripts/slowest-tests.mjs (issue 44).
    reporters: ["default", "json"],
    outputFile: { json: `test-reports/vitest-${process.env.DATABASE_URL ? "postgresql" : "pglite"}.json` },
  },
});
