import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// Nothing but React Router's own plugin: what a new framework-mode app starts with.
export default defineConfig({
  plugins: [reactRouter()],
  // Vite's dependency cache beside the build (a temporary folder), not in the project's node_modules.
  cacheDir: process.env.MINIMAL_BUILD_DIR ? `${process.env.MINIMAL_BUILD_DIR}/.vite` : undefined,
});
