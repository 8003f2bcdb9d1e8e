import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  build: { assetsInlineLimit: 0 },
  ssr: {
    // Native and Node-only packages stay external in the server bundle.
    external: ["@node-rs/argon2", "sharp", "@electric-sql/pglite", "postgres", "nodemailer", "idn-area-data"],
  },
});
