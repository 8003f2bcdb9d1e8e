import type { Config } from "@react-router/dev/config";

// The bench's floor (scripts/bench-lighthouse.mjs): server rendering as the store, built into a
// temporary folder the bench names (MINIMAL_BUILD_DIR), never into this source folder.
export default {
  ssr: true,
  buildDirectory: process.env.MINIMAL_BUILD_DIR ?? "build",
} satisfies Config;
